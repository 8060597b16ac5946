// llmobs server link: a new one-time link to the web UI of a running llmobs server, asked of it
// with the keys of the profile that points at it (POST /api/llmobs/ui-link). The link printed at
// start opens the UI once; this one lets a second browser in without a restart.
import { ApiError, UsageError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'link',
  summary: 'print a new one-time link to the web UI of the running llmobs server, for another browser (asked with the profile\'s keys; no restart)',
  notes: `
  The link opens the web UI once, within 10 minutes, and carries no key. The
  request goes to the server of the active profile (or --profile NAME, or
  LANGFUSE_HOST and the keys), which answers only to the project's secret key.`,
  examples: ['llmobs server link', 'llmobs server link --profile local', 'llmobs server link --json'],
  async run(ctx, { command }) {
    // The flags of `llmobs server` parse here too; they start a server, which this does not.
    const server = command.parent;
    const given = server?.options.filter((option) => server.getOptionValueSource(option.attributeName()) === 'cli') ?? [];
    if (given.length > 0) throw new UsageError(`${given.map((option) => option.long).join(', ')}: a flag of llmobs server, not of llmobs server link`);
    const [{ z }, { UI_LINK_PATH }] = await Promise.all([import('zod'), import('../../server/handlers/ui-link.js')]);
    const client = await ctx.api();
    let url: string;
    try {
      url = (await client.request('POST', UI_LINK_PATH, { schema: z.object({ url: z.string().url() }) })).data.url;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        error.hint = /without its web UI/.test(error.serverMessage ?? '')
          ? 'Restart it without --no-ui to have a web UI.'
          : `${client.baseUrl} is not an llmobs server: point --profile (or LANGFUSE_HOST) at the one that runs the web UI.`;
      }
      throw error;
    }
    if (ctx.globals.json) ctx.out.printJson({ url });
    else ctx.out.line(url);
  },
});
