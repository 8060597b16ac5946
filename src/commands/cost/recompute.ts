// llmobs cost recompute: re-price past generations with model definitions and compare with the
// stored cost, per model.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import type { RepriceSource } from './reprice.js';
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
  async run(ctx, { opts: given }) {
    const [{ recomputeOptions, refuseServerFilters }, { resolveRange }, { rangeProblem }, { observationQuery }, { apiQuery, loadRecomputer, reprice }, { printRecompute }] = await Promise.all([import('./options.js'), import('./range.js'), import('../../core/spend/report.js'), import('../observations/filters.js'), import('./reprice.js'), import('./recompute-render.js')]);
    const opts = parseOptions(recomputeOptions(ctx.now()), given);
    let source: RepriceSource;
    if (opts.input !== undefined) {
      refuseServerFilters(opts);
      source = { file: opts.input };
    } else {
      const range = resolveRange(opts, ctx.now());
      const empty = rangeProblem(range.from.time, range.to.time);
      if (empty) throw new UsageError(empty);
      source = { query: apiQuery(observationQuery({ ...opts, from: range.from.time, to: range.to.time }), opts.type), limit: opts.limit };
    }
    const recomputer = await loadRecomputer(ctx, opts);
    const stats = await reprice(ctx, source, recomputer, opts.output);
    printRecompute(ctx, recomputer.report(), stats, opts);
    if (stats.failed > 0) ctx.exitCode = 2;
  },
});
