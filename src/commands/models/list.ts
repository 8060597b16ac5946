// llmobs models list: list model definitions, the project's own and the built-in ones (--offline:
// the built-in catalogue, without a server).
import type { ModelDefinition } from '../../core/models/types.js';
import type { FetchPage } from '../paging.js';
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
    { flags: '--offline', help: 'the built-in catalogue bundled with llmobs, without a profile or a server (the same pages and output; no custom definitions)' },
  ],
  notes: `
  --json prints {"data": [...], "meta": {page, limit, totalItems, totalPages}},
  the same shape with --limit and --all (meta is the server's, of the first page
  read; totalItems counts before --custom or --managed). With --offline, the
  built-in catalogue is read in the same pages, in the server's order.`,
  examples: [
    'llmobs models list',
    'llmobs models ls --custom',
    'llmobs models list --all --json',
    'llmobs models list --limit 200 --csv > models.csv',
    'llmobs models list --offline --all',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { listModels }, { modelsPage }, { builtInDefinitions, catalogueInfo }, { checkPaging, hintMore, listingJson, pagingFields, readList }, { printModelTable }] = await Promise.all([import('zod'), import('../../api/models.js'), import('../../core/models/list-page.js'), import('../../data/catalogue.js'), import('../paging.js'), import('./render.js')]);
    const opts = parseOptions(z.object({ ...pagingFields, custom: z.boolean().default(false), managed: z.boolean().default(false), offline: z.boolean().default(false) }), given);
    if (opts.custom && opts.managed) throw new UsageError('--custom and --managed exclude each other; leave both out to list every definition');
    const filter = opts.custom ? (m: ModelDefinition) => !m.isLangfuseManaged : opts.managed ? (m: ModelDefinition) => m.isLangfuseManaged : undefined;
    checkPaging(opts, { filtered: filter !== undefined, filterFlag: opts.custom ? '--custom' : '--managed' });
    // Offline, the catalogue is read in the server's pages, so the flags and the output are the same.
    const client = opts.offline ? undefined : await ctx.api();
    const fetchPage: FetchPage<ModelDefinition> = client ? (page) => listModels(client, page) : async (page) => modelsPage(builtInDefinitions(), page);

    const listing = await readList(fetchPage, opts, { filter, maxPages: ctx.globals.maxPages });
    const noCustom = opts.offline && opts.custom;
    if (ctx.globals.json) ctx.out.printJson(listingJson(listing));
    else if (!noCustom) {
      printModelTable(ctx, listing.data);
      if (listing.data.length > 0 && (opts.all || filter)) {
        const custom = listing.data.filter((m) => !m.isLangfuseManaged).length;
        ctx.out.info(`${listing.data.length} definition${listing.data.length === 1 ? '' : 's'} (${custom} custom, ${listing.data.length - custom} built-in)`);
      }
    }
    if (noCustom) ctx.out.info('No custom definitions offline: the built-in catalogue has only built-in ones. The project\'s own are listed without --offline.');
    else if (opts.offline && !ctx.globals.json) ctx.out.info(`From the built-in catalogue of this llmobs (generated ${catalogueInfo().generatedAt.slice(0, 10)}), not from a server.`);
    hintMore(ctx, listing, 'model definitions');
  },
});

