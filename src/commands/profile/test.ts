import type { Context } from '../../context.js';
import type { ActionInput } from '../action.js';
import { printIdentity, whoAmI } from '../identity.js';

export default async function action(ctx: Context, { args }: ActionInput): Promise<void> {
  const name = args[0] as string | undefined;
  const config = await ctx.resolveConfig({ auth: true, ...(name ? { profile: name } : {}) });
  printIdentity(ctx, await whoAmI(ctx, config), 'test');
}
