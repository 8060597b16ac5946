import type { Context } from '../../context.js';
import { maskKey } from '../../config/mask.js';
import { REGION_NAMES } from '../../config/regions.js';
import { profileUrl } from '../../config/resolve.js';
import type { ActionInput } from '../action.js';

export default async function action(ctx: Context, { opts }: ActionInput): Promise<void> {
  const store = await ctx.profiles();
  const active = store.activeName();
  const rows = store.names().map((name) => {
    const profile = store.get(name)!;
    return {
      name,
      active: name === active,
      baseUrl: profileUrl(profile) ?? null,
      region: profile.region ?? null,
      auth: profile.apiKey ? 'bearer' : profile.secretKey ? 'basic' : 'none',
      publicKey: profile.publicKey ? maskKey(profile.publicKey) : null,
    };
  });
  if (opts.names === true) {
    for (const row of rows) ctx.out.line(row.name);
    return;
  }
  if (ctx.globals.json) {
    ctx.out.printJson(rows);
    return;
  }
  if (rows.length === 0) {
    ctx.out.info(`No profiles yet. Add one with: llmobs profile add <name> --region ${REGION_NAMES.join('|')}`);
    return;
  }
  ctx.out.table(
    [{ header: '' }, { header: 'NAME', style: (text, c) => c.bold(text) }, { header: 'SERVER' }, { header: 'AUTH' }, { header: 'PUBLIC KEY' }],
    rows.map((row) => [row.active ? '*' : '', row.name, row.baseUrl, row.auth, row.publicKey]),
  );
}
