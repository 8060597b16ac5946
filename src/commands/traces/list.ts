import type { z } from 'zod';
import type { ApiClient, Query } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { Listing } from '../paging.js';
import { ApiNotFoundError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { pagingFlags } from '../paging-flags.js';
import { TIME_FORMS } from '../observations/filter-flags.js';

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
  async run(ctx, { opts }) {
    const [{ z }, { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, observationPages, retryOptions }, { listTracesPage, notFoundKind }, { lenientNumber }, { formatCost, formatSeconds }, { checkWindow, timeOption }, { checkPaging, hintMore, listingJson, pagingFields, readList }] = await Promise.all([import('zod'), import('../../api/observations.js'), import('../../api/traces.js'), import('../../core/numbers.js'), import('../../output/format.js'), import('../observations/filters.js'), import('../paging.js')]);
    const DEFAULT_LIMIT = 50;
    const ORDER_FIELDS = ['id', 'timestamp', 'name', 'userId', 'release', 'version', 'public', 'bookmarked', 'sessionId'];

    function options(now: Date) {
      const text = z.string().min(1, 'must not be empty');
      return z
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
        .superRefine(checkWindow);
    }

    type Options = z.infer<ReturnType<typeof options>>;

    interface TraceRow {
      id: string;
      timestamp: string | null;
      name: string | null;
      userId: string | null;
      sessionId: string | null;
      tags: string[];
      observations: number | null;
      totalCost: number | null;
      latency: number | null;
    }

    async function run(ctx: Context, opts: Options): Promise<void> {
      checkPaging(opts);
      const client = await ctx.api();
      const query: Query = {
        name: opts.name,
        userId: opts.user,
        sessionId: opts.session,
        tags: opts.tag,
        environment: opts.environment,
        release: opts.release,
        version: opts.version,
        fromTimestamp: opts.from?.toISOString(),
        toTimestamp: opts.to?.toISOString(),
        orderBy: opts.orderBy,
        fields: 'core,observations,scores,metrics',
      };
      let listing: Listing<Record<string, unknown>> | undefined;
      let items: Record<string, unknown>[];
      try {
        listing = await readList((request) => listTracesPage(client, query, request.page, request.limit), opts, { maxPages: ctx.globals.maxPages });
        items = listing.data;
      } catch (error) {
        if (notFoundKind(error) !== 'route-gone') throw error;
        if (opts.orderBy) throw new UsageError('--order-by needs the legacy trace list, which this server does not have', { cause: error });
        if (opts.page !== undefined) throw new UsageError('--page needs the legacy trace list, which this server does not have; use --limit or --all', { cause: error });
        ctx.trace(`  ${(error as Error).message}: listing root observations of the v2 API instead`);
        try {
          items = await fromRootObservations(ctx, client, opts, opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT));
        } catch (inner) {
          if (inner instanceof ApiNotFoundError) throw error;
          throw inner;
        }
      }
      if (ctx.globals.json) {
        ctx.out.printJson(listing ? listingJson(listing) : { data: items, meta: { source: 'observations-v2' } });
      } else {
        printTraces(ctx, items.map(row));
        if (!listing) ctx.out.hint('This server has no legacy trace list: these are the traces\' root observations (v2 API), without per-trace cost.');
      }
      if (listing) hintMore(ctx, listing, 'traces');
    }

    function printTraces(ctx: Context, rows: TraceRow[]): void {
      if (rows.length === 0) {
        ctx.out.info('No traces match.');
        return;
      }
      ctx.out.table(
        [
          { header: 'TIMESTAMP' },
          { header: 'NAME', style: (t, c) => c.bold(t) },
          { header: 'USER' },
          { header: 'SESSION' },
          { header: 'TAGS' },
          { header: 'OBS', align: 'right' },
          { header: 'COST', align: 'right' },
          { header: 'LATENCY', align: 'right' },
          { header: 'ID' },
        ],
        rows.map((r) => [
          r.timestamp ? r.timestamp.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '',
          r.name ?? '',
          r.userId ?? '',
          r.sessionId ?? '',
          r.tags.join(','),
          r.observations ?? '',
          r.totalCost === null ? '' : formatCost(r.totalCost),
          r.latency === null ? '' : formatSeconds(r.latency),
          r.id,
        ]),
      );
    }

    function row(item: Record<string, unknown>): TraceRow {
      const str = (v: unknown) => (typeof v === 'string' ? v : null);
      const cost = lenientNumber(item.totalCost);
      const latency = lenientNumber(item.latency);
      return {
        id: String(item.id),
        timestamp: str(item.timestamp),
        name: str(item.name),
        userId: str(item.userId),
        sessionId: str(item.sessionId),
        tags: Array.isArray(item.tags) ? item.tags.map(String) : [],
        observations: Array.isArray(item.observations) ? item.observations.length : null,
        // The legacy API answers -1 when a metric was not computed.
        totalCost: cost !== null && cost >= 0 ? cost : null,
        latency: latency !== null && latency >= 0 ? latency : null,
      };
    }

    /** Traces as their root observations (v2 API). Filters the API has are sent; the rest are applied here. */
    async function fromRootObservations(ctx: Context, client: ApiClient, opts: Options, max: number | undefined): Promise<Record<string, unknown>[]> {
      const query: Query = {
        isRootObservation: 'true',
        fields: 'core,basic,metrics,trace_context',
        userId: opts.user,
        sessionId: opts.session,
        environment: opts.environment,
        fromStartTime: opts.from?.toISOString(),
        toStartTime: opts.to?.toISOString(),
      };
      const wanted = (o: Record<string, unknown>) => {
        const name = (o.traceName as string | null | undefined) ?? (o.name as string | null | undefined) ?? null;
        const tags = Array.isArray(o.tags) ? o.tags : [];
        if (opts.name !== undefined && name !== opts.name) return false;
        if (opts.tag && !opts.tag.every((tag) => tags.includes(tag))) return false;
        if (opts.release !== undefined && o.release !== opts.release) return false;
        if (opts.version !== undefined && o.version !== opts.version) return false;
        return true;
      };
      const local = opts.name !== undefined || opts.tag !== undefined || opts.release !== undefined || opts.version !== undefined;
      const out: Record<string, unknown>[] = [];
      const seen = new Set<string>();
      const pages = observationPages(client, query, FIRST_PAGE, {
        ...retryOptions(ctx),
        // Several root observations can share a trace: read on until enough distinct traces.
        pageSize: local || max === undefined ? OBSERVATION_PAGE_LIMIT : Math.min(Math.max(max, 50), OBSERVATION_PAGE_LIMIT),
        maxPages: ctx.globals.maxPages,
        maxBytes: client.limits.maxListingBytes,
      });
      for await (const page of pages) {
        for (const o of page.items) {
          const traceId = typeof o.traceId === 'string' ? o.traceId : null;
          if (!traceId || seen.has(traceId) || !wanted(o)) continue;
          seen.add(traceId);
          out.push({
            id: traceId,
            timestamp: o.startTime ?? null,
            name: o.traceName ?? o.name ?? null,
            userId: o.userId ?? null,
            sessionId: o.sessionId ?? null,
            environment: o.environment ?? null,
            release: o.release ?? null,
            version: o.version ?? null,
            tags: o.tags ?? [],
            latency: o.latency ?? null,
            rootObservationId: o.id,
          });
          if (max !== undefined && out.length >= max) return out;
        }
      }
      return out;
    }

    await run(ctx, parseOptions(options(ctx.now()), opts));
  },
});
