// llmobs profile list: list profiles.
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'list profiles',
  flags: [
    { flags: '--names', help: 'print only the names, one per line' },
  ],
  examples: [
    'llmobs profile list',
    'llmobs profile ls --names',
    'llmobs profile list --json',
  ],
  async run(ctx, { opts }) {
    const [{ REGION_NAMES }, { summarise }] = await Promise.all([import('../../config/regions.js'), import('../../config/profile-parts.js')]);
    const store = await ctx.profiles();
    const active = store.activeName();
    const rows = store.names().map((name) => summarise(name, store.get(name)!, name === active));
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
  },
});
