// llmobs traces get: one trace as a tree of its observations, with its totals.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

/** Most observations a trace is read with unless --max-observations says otherwise: a bound a server cannot push memory past. */
const DEFAULT_MAX_OBSERVATIONS = 100_000;

export default defineCommand({
  name: 'get',
  summary: 'show a trace as a tree: each observation\'s type, name, model, level, start, duration, usage, cost and status, and the totals',
  args: [
    { name: '<id>', help: 'trace id' },
  ],
  flags: [
    { flags: '--io', help: 'show inputs and outputs (cut to the terminal\'s width on a terminal, whole when piped)' },
    { flags: '--wait <seconds>', help: 'when the trace is not there (yet), ask again until it is or the time is up (ingestion is asynchronous)' },
    { flags: '--max-observations <n>', help: `read at most this many observations; a trace with more stops with exit 5 (default ${DEFAULT_MAX_OBSERVATIONS.toLocaleString('en-US')})` },
  ],
  examples: [
    'llmobs traces get 7f3c9a2e',
    'llmobs traces get 7f3c9a2e --io',
    '# right after sending it: ask again until it is there',
    'llmobs traces get "$TRACE_ID" --wait 30 --json',
    '# a trace of an agent that ran for hours: JSON is written as it is read',
    'llmobs traces get 7f3c9a2e --json --max-observations 500000 > trace.json',
  ],
  async run(ctx, { args, opts }) {
    const [{ z }, { loadTrace }, { printTrace }, sinks, { wholeNumber }] = await Promise.all([import('zod'), import('./load.js'), import('./render.js'), import('./sinks.js'), import('../observations/filters.js')]);
    const Options = z.object({
      io: z.boolean().default(false),
      wait: z
        .string()
        .regex(/^\d+(\.\d+)?$/, 'must be a number of seconds')
        .transform(Number)
        .pipe(z.number().max(3600, 'must be at most 3600 (an hour)'))
        .optional(),
      maxObservations: wholeNumber(1, 100_000_000).optional(),
    });

    const options = parseOptions(Options, opts);
    const id = String(args[0] ?? '').trim();
    if (id === '') throw new UsageError('the trace id must not be empty');
    const client = await ctx.api();
    const json = ctx.globals.json;
    const columns = (ctx.io.stdout as { columns?: number }).columns;
    const tree = new sinks.TreeSink({ io: options.io, width: ctx.out.isTTY ? (columns && columns > 40 ? columns : 100) : undefined });
    // JSON goes out as it is read; jq needs the whole document, and the tree every row.
    const streamed = json && ctx.globals.jq === undefined;
    const sink = !json ? tree : streamed ? new sinks.JsonStreamSink(ctx) : new sinks.JsonWholeSink(ctx);
    await loadTrace(ctx, client, id, {
      io: options.io,
      waitSeconds: options.wait ?? 0,
      maxObservations: options.maxObservations ?? DEFAULT_MAX_OBSERVATIONS,
      traceIo: json,
      maxPages: ctx.globals.maxPages,
      maxBytes: streamed ? undefined : client.limits.maxListingBytes,
    }, sink);
    if (!json) printTrace(ctx, tree.view(), options.io);
  },
});
