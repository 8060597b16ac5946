// llmobs profile show: show a profile, or without a name the settings in effect and where each comes from.
import { ProfileNotFoundError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'show',
  summary: 'show a profile, or without a name the settings in effect and where each comes from',
  args: [
    { name: '[profile]', help: 'profile name' },
  ],
  examples: [
    '# The settings in effect and where each comes from',
    'llmobs profile show',
    'llmobs profile show prod-us --json',
  ],
  async run(ctx, { args }) {
    const { printEffective, printStored } = await import('./render.js');
    const name = args[0] as string | undefined;
    const store = await ctx.profiles();
    if (name === undefined) return printEffective(ctx, store);
    const profile = store.get(name);
    if (!profile) throw new ProfileNotFoundError(name, store.names());
    printStored(ctx, store, name, profile);
  },
});
