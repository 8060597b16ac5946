// llmobs profile test: check a profile against its server: project, organisation, host and round-trip time.
import { ProfileNotFoundError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'test',
  summary: 'check a profile against its server: project, organisation, host and round-trip time',
  args: [
    { name: '[profile]', help: 'profile name (default: the settings in effect)' },
  ],
  examples: [
    'llmobs profile test',
    'llmobs profile test prod-us --json',
  ],
  async run(ctx, { args }) {
    const { printIdentity, whoAmI } = await import('../identity.js');
    const name = args[0] as string | undefined;
    if (name !== undefined) {
      const store = await ctx.profiles();
      if (!store.get(name)) throw new ProfileNotFoundError(name, store.names());
    }
    const config = await ctx.resolveConfig({ auth: true, ...(name ? { profile: name } : {}) });
    printIdentity(ctx, await whoAmI(ctx, config), 'test');
  },
});
