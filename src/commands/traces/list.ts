// llmobs traces list: list traces, newest first, with their cost and latency.
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { pagingFlags } from '../paging-flags.js';
import { TIME_FORMS } from '../observations/filter-flags.js';

/** What --order-by sorts by (the legacy trace list's fields). */
const ORDER_FIELDS = ['id', 'timestamp', 'name', 'userId', 'release', 'version', 'public', 'bookmarked', 'sessionId'];

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'list traces, newest first, with their cost and latency',
  flags: [
    { flags: '--name <name>', help: 'only traces with this name' },
    { flags: '--user <id>', help: 'only traces of this user' },
    { flags: '--session <id>', help: 'only traces of this session' },
    { flags: '--tag <tag>', help: 'only traces with this tag (repeatable: all of them)', repeatable: true },
    { flags: '--environment <env>', help: 'only this environment (repeatable: any of them)', repeatable: true },
    { flags: '--release <release>', help: 'only traces of this release' },
    { flags: '--version <version>', help: 'only traces of this version' },
    { flags: '--from <time>', help: `timestamp on or after this (${TIME_FORMS})` },
    { flags: '--to <time>', help: 'timestamp before this (same forms)' },
    { flags: '--order-by <field.dir>', help: 'sort, e.g. timestamp.asc or name.desc (default: newest first)' },
    ...pagingFlags({ noun: 'traces', serverDefault: 50 }),
  ],
  examples: [
    'llmobs traces list',
    'llmobs traces list --user user-42 --from 24h',
    'llmobs traces list --tag beta --environment production --limit 200 --json',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { checkWindow, timeOption }, { checkPaging, hintMore, listingJson, pagingFields }, { readTraces }, { readTraceRow }, { printTraces }] = await Promise.all([import('zod'), import('../observations/filters.js'), import('../paging.js'), import('./listing.js'), import('../../core/traces/list-row.js'), import('./render.js')]);
    const text = z.string().min(1, 'must not be empty');
    const now = ctx.now();
    const opts = parseOptions(
      z
        .object({
          name: text.optional(),
          user: text.optional(),
          session: text.optional(),
          tag: z.array(text).optional(),
          environment: z.array(text).optional(),
          release: text.optional(),
          version: text.optional(),
          from: timeOption(now).optional(),
          to: timeOption(now).optional(),
          orderBy: z
            .string()
            .regex(new RegExp(`^(${ORDER_FIELDS.join('|')})\\.(asc|desc)$`), `must be FIELD.asc or FIELD.desc with FIELD one of ${ORDER_FIELDS.join(', ')}`)
            .optional(),
          ...pagingFields,
        })
        .superRefine(checkWindow),
      given,
    );
    checkPaging(opts);
    const client = await ctx.api();
    const { listing, items, metricsProblem } = await readTraces(ctx, client, opts);
    if (ctx.globals.json) {
      ctx.out.printJson(listing ? listingJson(listing) : { data: items, meta: { source: 'observations-v2' } });
    } else {
      printTraces(ctx, items.map(readTraceRow));
      // What Langfuse v4 cannot give as the v3 list did, said once.
      if (!listing && items.length) ctx.out.hint('Listed from the traces\' root observations and the Metrics API (this server has no v3 trace list): LATENCY is each trace\'s longest observation.');
    }
    if (metricsProblem) ctx.out.warn(`cost, latency and observation count per trace not read (${metricsProblem})`);
    if (listing) hintMore(ctx, listing, 'traces');
  },
});
