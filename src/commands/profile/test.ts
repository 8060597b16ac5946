import type { Context } from '../../context.js';
import { ProfileNotFoundError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { printIdentity, whoAmI } from '../identity.js';

export default async function action(ctx: Context, { args }: ActionInput): Promise<void> {
  const name = args[0] as string | undefined;
  if (name !== undefined) {
    const store = await ctx.profiles();
    if (!store.get(name)) throw new ProfileNotFoundError(name, store.names());
  }
  const config = await ctx.resolveConfig({ auth: true, ...(name ? { profile: name } : {}) });
  printIdentity(ctx, await whoAmI(ctx, config), 'test');
}
