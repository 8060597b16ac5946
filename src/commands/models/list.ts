// llmobs models list: list model definitions, the project's own.
import type { ApiModel } from '../../api/schemas/models.js';
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { pagingFlags } from '../paging-flags.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'list model definitions, the project\'s own (custom) and the built-in ones, with prices per 1M tokens',
  flags: [
    ...pagingFlags({ noun: 'definitions', serverDefault: 50 }),
    { flags: '--custom', help: 'only the project\'s own definitions (the server cannot filter: pages are read until --limit is reached, or all)' },
    { flags: '--managed', help: 'only the built-in, Langfuse-managed definitions (read like --custom)' },
  ],
  notes: `
  --json prints {"data": [...], "meta": {page, limit, totalItems, totalPages}},
  the same shape with --limit and --all (meta is the server's, of the first page
  read; totalItems counts before --custom or --managed).`,
  examples: [
    'llmobs models list',
    'llmobs models ls --custom',
    'llmobs models list --all --json',
    'llmobs models list --limit 200 --csv > models.csv',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { listModels }, { checkPaging, hintMore, listingJson, pagingFields, readList }, { printModelTable }] = await Promise.all([import('zod'), import('../../api/models.js'), import('../paging.js'), import('./render.js')]);
    const opts = parseOptions(z.object({ ...pagingFields, custom: z.boolean().default(false), managed: z.boolean().default(false) }), given);
    if (opts.custom && opts.managed) throw new UsageError('--custom and --managed exclude each other; leave both out to list every definition');
    const filter = opts.custom ? (m: ApiModel) => !m.isLangfuseManaged : opts.managed ? (m: ApiModel) => m.isLangfuseManaged : undefined;
    checkPaging(opts, { filtered: filter !== undefined, filterFlag: opts.custom ? '--custom' : '--managed' });
    const client = await ctx.api();

    const listing = await readList((page) => listModels(client, page), opts, { filter, maxPages: ctx.globals.maxPages });
    if (ctx.globals.json) ctx.out.printJson(listingJson(listing));
    else {
      printModelTable(ctx, listing.data);
      if (listing.data.length > 0 && (opts.all || filter)) {
        const custom = listing.data.filter((m) => !m.isLangfuseManaged).length;
        ctx.out.info(`${listing.data.length} definition${listing.data.length === 1 ? '' : 's'} (${custom} custom, ${listing.data.length - custom} built-in)`);
      }
    }
    hintMore(ctx, listing, 'model definitions');
  },
});
