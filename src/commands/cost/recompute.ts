import type { z } from 'zod';
import type { Context } from '../../context.js';
import type { ModelRecompute } from '../../core/spend/recompute.js';
import type { Query } from '../../api/client.js';
import type { AtomicStream } from '../../io/atomic.js';
import { FileError, UsageError } from '../../errors.js';
import { formatInteger } from '../../core/thousands.js';
import { parseOptions } from '../options.js';
import { performance } from 'node:perf_hooks';
import type { Recomputer } from '../../core/spend/recompute.js';
import { defineCommand } from '../define.js';
import { observationFilterFlags } from '../observations/filter-flags.js';

export default defineCommand({
  name: 'recompute',
  summary: 're-price past generations with model definitions (the project\'s, or the built-in catalogue with --offline; plus --models-file) and compare with the stored cost, per model',
  flags: [
    { flags: '--input <file>', help: 'read generations from a file written by observations export (JSON Lines or JSON; - for stdin), offline' },
    ...observationFilterFlags,
    { flags: '--month <month>', help: 'with the API: a calendar month (UTC), YYYY-MM, this or last (default: this month so far)' },
    { flags: '--limit <n>', help: 'with the API: re-price at most this many generations' },
    { flags: '--models-file <file>', help: 'custom model definitions (JSON or YAML) added to the others, as if created in the project' },
    { flags: '--offline', help: 'price with the built-in catalogue (and --models-file), never the server\'s definitions' },
    { flags: '--remote', help: 'price with the project\'s definitions on the server (every page; cached 10 minutes); the default when a profile or keys are configured' },
    { flags: '--ignore-start-dates', help: 'match as the server does at ingestion: a definition\'s start date is not compared with the generation\'s time' },
    { flags: '--output <file>', help: 'write one JSON line per generation: id, traceId, startTime, model, definition, storedCost, recomputedCost, difference' },
  ],
  examples: [
    'llmobs cost recompute --input may.jsonl --models-file new-prices.yaml',
    'llmobs cost recompute --month last --remote --json',
    'llmobs cost recompute --input may.jsonl --output repriced.jsonl',
  ],
  async run(ctx, { opts }) {
    const [{ z }, { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, observationPages, retryOptions }, { loadPatternEngine }, { loadDecimal }, { Recomputer, recomputeTotals }, { cannotRead, openInputStream, openOutputFile }, { definitionsMode, describeOrigin, loadDefinitions, REMOTE_CACHE_TTL_MS }, { engineCounter }, { JsonBytes }, { filterShape, observationQuery, wholeNumber }, { Meter }, { LineTooLongError, lineChunks }, { countOf, formatCost, formatTokens }, { RecomputeLines, writeResult }, { resolveRange }] = await Promise.all([import('zod'), import('../../api/observations.js'), import('../../core/models/engine.js'), import('../../core/precision.js'), import('../../core/spend/recompute.js'), import('../../io/files.js'), import('../../model-definitions/index.js'), import('../../tokenizer/index.js'), import('../estimate/json-bytes.js'), import('../observations/filters.js'), import('../observations/meter.js'), import('../../io/line-chunks.js'), import('../../output/format.js'), import('./recompute-lines.js'), import('./range.js')]);
    const CHUNK = 1 << 18;
    const MAX_REPORTED = 20;
    /** What a generation needs to be priced again: its model, usage, input and output, time, level, tier attributes. */
    const API_FIELDS = 'core,basic,time,io,metadata,model,usage';

    function options(now: Date) {
      const { from: _from, to: _to, ...filters } = filterShape(now);
      return z.object({
        ...filters,
        input: z.string().min(1, 'must not be empty').optional(),
        from: z.string().optional(),
        to: z.string().optional(),
        month: z.string().optional(),
        limit: wholeNumber(1).optional(),
        modelsFile: z.string().min(1).optional(),
        offline: z.boolean().default(false),
        remote: z.boolean().default(false),
        ignoreStartDates: z.boolean().default(false),
        output: z.string().min(1, 'must not be empty').optional(),
      });
    }

    type Options = z.infer<ReturnType<typeof options>>;

    const API_ONLY = ['from', 'to', 'month', 'limit', 'type', 'name', 'trace', 'user', 'session', 'environment', 'level', 'version'] as const;

    async function run(ctx: Context, opts: Options): Promise<void> {
      if (opts.input !== undefined) {
        const apiOnly = API_ONLY.filter((key) => opts[key] !== undefined);
        if (apiOnly.length) throw new UsageError(`--input reads every generation in the file; ${apiOnly.map((k) => `--${k}`).join(', ')} select generations on the server: drop ${apiOnly.length === 1 ? 'it' : 'them'} (or filter when exporting)`);
      }
      const range = opts.input === undefined ? resolveRange(opts, ctx.now()) : undefined;
      if (range && range.from.time.getTime() >= range.to.time.getTime()) throw new UsageError(`the time range is empty: --from (${range.from.time.toISOString()}) must be earlier than --to (${range.to.time.toISOString()})`);
      const loaded = await loadDefinitions(ctx, { mode: definitionsMode(opts), modelsFile: opts.modelsFile, maxAgeMs: REMOTE_CACHE_TTL_MS });
      ctx.out.info(`Prices from ${describeOrigin(loaded.origin)}.`);
      await Promise.all([loadPatternEngine(), loadDecimal()]);
      const recomputer = new Recomputer({ definitions: loaded.definitions, unusable: loaded.unusable, count: engineCounter, datedMatching: !opts.ignoreStartDates });

      const sink = opts.output === undefined ? undefined : await openOutputFile(ctx, opts.output);
      const started = performance.now();
      let stats: { lines: number; generations: number; failed: number };
      try {
        stats =
          opts.input !== undefined
            ? await fromFile(ctx, opts.input, recomputer, sink)
            : await fromApi(ctx, { ...observationQuery({ ...opts, from: range!.from.time, to: range!.to.time }), type: opts.type ?? 'GENERATION', fields: API_FIELDS }, opts.limit, recomputer, sink);
        await sink?.commit();
      } catch (error) {
        await sink?.discard();
        throw error;
      }
      const seconds = (performance.now() - started) / 1000;
      const models = recomputer.report();
      ctx.out.info(
        `Re-priced ${countOf(stats.generations, 'generation')}${opts.input !== undefined ? ` from ${countOf(stats.lines, 'line')}` : ''} in ${seconds.toFixed(2)} s (${formatInteger(Math.round(stats.generations / Math.max(seconds, 0.001)))}/s)${recomputer.skipped ? `; ${countOf(recomputer.skipped, 'observation')} without a model or cost skipped` : ''}${sink ? `; one line per generation in ${opts.output}` : ''}`,
      );
      if (ctx.globals.json) ctx.out.printJson(models.map((m) => ({ ...m, model: m.model === '' ? null : m.model })));
      else printReport(ctx, models);
      if (stats.failed > 0) {
        if (stats.failed > MAX_REPORTED) ctx.out.warn(`${stats.failed - MAX_REPORTED} more lines or generations failed`);
        ctx.exitCode = 2;
      }
    }

    async function fromFile(ctx: Context, file: string, recomputer: Recomputer, sink: AtomicStream | undefined) {
      const { stream, size } = await openInputStream(ctx, file, 1 << 20);
      const lines = new RecomputeLines(recomputer, sink !== undefined);
      const progress = ctx.out.progress();
      const started = performance.now();
      const stats = { lines: 0, generations: 0, failed: 0 };
      let reported = 0;
      let bytes = 0;
      try {
        for await (const chunk of lineChunks(stream as AsyncIterable<unknown>, CHUNK)) {
          bytes += chunk.length;
          const outcome = lines.processChunk(chunk.toString('utf8'), stats.lines + 1);
          stats.lines += outcome.lines;
          stats.generations += outcome.generations;
          stats.failed += outcome.failed;
          for (const failure of outcome.failures) if (reported++ < MAX_REPORTED) ctx.out.warn(`line ${failure.line}: ${failure.message}`);
          if (outcome.output && sink) await sink.write(outcome.output);
          progress.update(() => {
            const rate = Math.round(stats.generations / Math.max((performance.now() - started) / 1000, 0.001));
            return `re-pricing: ${formatInteger(stats.generations)} generations${size ? ` ${Math.min(100, Math.floor((bytes / size) * 100))}%` : ''}, ${formatInteger(rate)}/s`;
          });
        }
      } catch (error) {
        if (error instanceof LineTooLongError) throw cannotRead(file, error);
        if (error instanceof Error && 'code' in error && typeof (error as NodeJS.ErrnoException).code === 'string' && !(error instanceof FileError)) throw cannotRead(file, error);
        throw error;
      } finally {
        progress.clear();
      }
      if (stats.generations === 0 && stats.failed > 0) {
        throw new UsageError(`${file} holds no observation llmobs can read (${stats.failed} lines failed)`, { hint: 'cost recompute reads what observations export writes as JSON Lines (--format jsonl) or JSON; CSV cannot carry usage maps whole.' });
      }
      return stats;
    }

    async function fromApi(ctx: Context, query: Query, limit: number | undefined, recomputer: Recomputer, sink: AtomicStream | undefined) {
      const client = await ctx.api();
      const meter = new Meter(ctx, 0, 0, 'generations');
      meter.announceRetries(client);
      const stats = { lines: 0, generations: 0, failed: 0 };
      let reported = 0;
      try {
        const pages = observationPages(client, query, FIRST_PAGE, {
          ...retryOptions(ctx),
          max: limit,
          pageSize: OBSERVATION_PAGE_LIMIT,
          maxPages: ctx.globals.maxPages,
        });
        for await (const page of pages) {
          const out = sink ? new JsonBytes(page.items.length * 200 + 1024) : null;
          for (const item of page.items) {
            const result = recomputer.add(item);
            if (!result) continue;
            stats.generations++;
            if (result.error) {
              stats.failed++;
              if (reported++ < MAX_REPORTED) ctx.out.warn(`${result.id ?? 'a generation'}: ${result.error}`);
            }
            if (out) writeResult(out, result);
          }
          if (out && sink) await sink.write(out.bytes());
          meter.page(page.items.length);
        }
      } finally {
        meter.clear();
      }
      return stats;
    }

    function printReport(ctx: Context, models: ModelRecompute[]): void {
      const { out } = ctx;
      if (models.length === 0) {
        out.info('No generations to re-price.');
        return;
      }
      const totals = recomputeTotals(models);
      const name = (m: { model: string }) => (m.model === '' ? '(no model)' : m.model);
      const diff = (d: number) => (Math.abs(d) < 5e-13 ? formatCost(0) : `${d > 0 ? '+' : ''}${formatCost(d)}`);
      const rows = models.map((m) => [
        name(m),
        formatTokens(m.generations),
        formatCost(m.storedCost),
        formatCost(m.recomputedCost),
        diff(m.difference),
        m.definitions.join(', ') || '(none)',
        m.unmatchedNow ? formatTokens(m.unmatchedNow) : '',
        m.unmatchedBefore === null ? '?' : m.unmatchedBefore ? formatTokens(m.unmatchedBefore) : '',
      ]);
      if (out.isTTY) rows.push(['total', formatTokens(totals.generations), formatCost(totals.storedCost), formatCost(totals.recomputedCost), diff(totals.difference), '', totals.unmatchedNow ? formatTokens(totals.unmatchedNow) : '', totals.unmatchedBefore === null ? '?' : totals.unmatchedBefore ? formatTokens(totals.unmatchedBefore) : '']);
      out.table(
        [
          { header: 'MODEL', style: (t, c) => (t === 'total' ? c.bold(t) : t) },
          { header: 'GENERATIONS', align: 'right' },
          { header: 'STORED', align: 'right' },
          { header: 'RECOMPUTED', align: 'right' },
          { header: 'DIFFERENCE', align: 'right', style: (t, c) => (t.startsWith('+') ? c.red(t) : t.startsWith('-') ? c.green(t) : t) },
          { header: 'DEFINITION NOW' },
          { header: 'UNMATCHED NOW', align: 'right' },
          { header: 'UNMATCHED THEN', align: 'right' },
        ],
        rows,
      );
      const now = models.filter((m) => m.unmatchedNow > 0 && m.model !== '');
      if (now.length) {
        out.warn(`no definition matches ${now.map((m) => `"${m.model}" (${formatTokens(m.unmatchedNow)})`).join(', ')}: they get no cost. Add one (llmobs models create) or see why with: llmobs models match NAME`);
      }
      const before = models.filter((m) => (m.unmatchedBefore ?? 0) > 0);
      if (before.length) {
        const newly = before.filter((m) => m.definitions.length > 0);
        out.info(`Matched no definition when ingested: ${before.map((m) => `"${name(m)}" (${formatTokens(m.unmatchedBefore!)})`).join(', ')}${newly.length ? `; ${newly.map((m) => `"${name(m)}"`).join(', ')} ${newly.length === 1 ? 'has' : 'have'} one now` : ''}.`);
      }
    }

    await run(ctx, parseOptions(options(ctx.now()), opts));
  },
});
