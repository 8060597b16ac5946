import type { Context } from '../context.js';
import { printIdentity, whoAmI } from './identity.js';

export default async function action(ctx: Context): Promise<void> {
  printIdentity(ctx, await whoAmI(ctx, await ctx.resolveConfig({ auth: true })), 'whoami');
}
