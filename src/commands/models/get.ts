// llmobs models get: show one definition in full, with every pricing tier.
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'get',
  summary: 'show one definition in full, with every pricing tier',
  args: [
    { name: '<id-or-name>', help: 'definition id, or model name' },
  ],
  examples: [
    'llmobs models get gpt-4o',
    'llmobs models get b9854a5c92dc496b997d99d20 --json',
  ],
  async run(ctx, { args }) {
    const [{ printDefinition }, { resolveModel }] = await Promise.all([import('./render.js'), import('./resolve.js')]);
    const client = await ctx.api();
    const { model } = await resolveModel(client, String(args[0]));
    if (ctx.globals.json) return ctx.out.printJson(model);
    printDefinition(ctx, model);
  },
});
