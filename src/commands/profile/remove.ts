import type { Context } from '../../context.js';
import { ProfileNotFoundError, UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  const name = args[0] as string;
  const store = await ctx.profiles();
  if (!store.get(name)) {
    throw new ProfileNotFoundError(name, store.names());
  }
  if (opts.yes !== true) {
    if (!ctx.interactive) throw new UsageError(`refusing to remove profile "${name}" without confirmation`, { hint: 'Pass --yes when not on a terminal.' });
    const sure = await (await ctx.prompter()).confirm({ message: `Remove profile "${name}" and its keys?`, default: false });
    if (!sure) {
      ctx.out.info('Nothing removed.');
      return;
    }
  }
  const wasActive = store.activeName() === name;
  store.remove(name);
  if (ctx.globals.json) return ctx.out.printJson({ removed: name, wasActive });
  ctx.out.success(`Removed profile "${name}"`);
  if (wasActive) ctx.out.hint('No profile is active now; pick one with: llmobs profile use <name>');
}
