import { getHealth } from '../api/projects.js';
import type { Context } from '../context.js';

export default async function action(ctx: Context): Promise<void> {
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
}
