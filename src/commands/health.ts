// llmobs health: whether the server answers, without credentials.
import { defineCommand } from './define.js';

export default defineCommand({
  name: 'health',
  summary: 'check that the server answers (GET /api/public/health, no credentials needed)',
  examples: ['llmobs health', 'llmobs health --base-url https://us.cloud.langfuse.com --json'],
  async run(ctx) {
    const { getHealth } = await import('../api/projects.js');
    const client = await ctx.api({ auth: false });
    const { health, durationMs } = await getHealth(client);
    const data = { status: health.status, version: health.version ?? null, baseUrl: client.baseUrl, durationMs };
    if (ctx.globals.json) return ctx.out.printJson(data);
    ctx.out.keyValues([
      ['Status', health.status === 'OK' ? ctx.out.c.green(health.status) : health.status],
      ['Version', data.version],
      ['Server', data.baseUrl],
      ['Round trip', `${durationMs} ms`],
    ]);
  },
});
