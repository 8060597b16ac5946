// llmobs traces get: one trace as a tree of its observations, with its totals.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'get',
  summary: 'show a trace as a tree: each observation\'s type, name, model, level, start, duration, usage, cost and status, and the totals',
  args: [
    { name: '<id>', help: 'trace id' },
  ],
  flags: [
    { flags: '--io', help: 'show inputs and outputs (cut to the terminal\'s width on a terminal, whole when piped)' },
    { flags: '--wait <seconds>', help: 'when the trace is not there (yet), ask again until it is or the time is up (ingestion is asynchronous)' },
  ],
  examples: [
    'llmobs traces get 7f3c9a2e',
    'llmobs traces get 7f3c9a2e --io',
    '# right after sending it: ask again until it is there',
    'llmobs traces get "$TRACE_ID" --wait 30 --json',
  ],
  async run(ctx, { args, opts }) {
    const [{ z }, { loadTrace }, { printTrace, totalsOf }] = await Promise.all([import('zod'), import('./load.js'), import('./render.js')]);
    const Options = z.object({
      io: z.boolean().default(false),
      wait: z
        .string()
        .regex(/^\d+(\.\d+)?$/, 'must be a number of seconds')
        .transform(Number)
        .pipe(z.number().max(3600, 'must be at most 3600 (an hour)'))
        .optional(),
    });

    const options = parseOptions(Options, opts);
    const id = String(args[0] ?? '').trim();
    if (id === '') throw new UsageError('the trace id must not be empty');
    const client = await ctx.api();
    const loaded = await loadTrace(ctx, client, id, { io: options.io, waitSeconds: options.wait ?? 0 });
    if (ctx.globals.json) {
      const { totals } = totalsOf(loaded);
      ctx.out.printJson({ ...loaded.trace, totals, source: loaded.source });
      return;
    }
    printTrace(ctx, loaded, options.io);
  },
});
