// `llmobs traces get ID`: the trace and the tree of its observations, with its totals.
import { z } from 'zod';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { loadTrace } from './load.js';
import { printTrace, totalsOf } from './render.js';

const Options = z.object({
  io: z.boolean().default(false),
  wait: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a number of seconds')
    .transform(Number)
    .pipe(z.number().max(3600, 'must be at most 3600 (an hour)'))
    .optional(),
});

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
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
}
