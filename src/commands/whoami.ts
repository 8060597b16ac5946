// llmobs whoami: the server, profile, project and key in use, and where each setting comes from.
import { defineCommand } from './define.js';

export default defineCommand({
  name: 'whoami',
  summary: 'show which server, profile, project and key are in use',
  examples: ['llmobs whoami', 'llmobs whoami --profile prod-us --json'],
  async run(ctx) {
    const { printIdentity, whoAmI } = await import('./identity.js');
    printIdentity(ctx, await whoAmI(ctx, await ctx.resolveConfig({ auth: true })), 'whoami');
  },
});
