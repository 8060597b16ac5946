// llmobs profile remove: delete a profile.
import { ProfileNotFoundError, UsageError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm'],
  summary: 'delete a profile',
  args: [
    { name: '<profile>', help: 'profile name' },
  ],
  flags: [
    { flags: '-y, --yes', help: 'do not ask for confirmation (required without a terminal)' },
  ],
  examples: [
    'llmobs profile remove old-staging',
    'llmobs profile rm old-ci --yes',
  ],
  async run(ctx, { args, opts }) {
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
  },
});
