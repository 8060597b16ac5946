import type { Context } from '../../context.js';
import { ProfileNotFoundError } from '../../errors.js';
import type { ActionInput } from '../action.js';

export default async function action(ctx: Context, { args }: ActionInput): Promise<void> {
  const name = args[0] as string;
  const store = await ctx.profiles();
  if (!store.get(name)) {
    throw new ProfileNotFoundError(name, store.names());
  }
  store.setActive(name);
  if (ctx.globals.json) return ctx.out.printJson({ active: name });
  ctx.out.success(`Active profile is now "${name}"`);
}
