import { z } from 'zod';
import { readLabelState } from '../../api/prompts.js';
import type { Context } from '../../context.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { planPromote } from '../../core/prompts/label-plan.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { checkLabelToMove, parseExpectCurrent, promptName, shellQuote } from '../prompts/shared.js';
import { applyPlan } from './apply.js';

const Options = z.object({
  name: z.string(),
  from: z.string({ message: 'is required: the label whose version is promoted, e.g. --from staging' }).min(1, 'must not be empty'),
  to: z.string({ message: 'is required: the label to move, e.g. --to production' }),
  expectCurrent: z.string().optional(),
  dryRun: z.boolean().default(false),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  const name = promptName(opts.name);
  const expectCurrent = parseExpectCurrent(opts.expectCurrent);
  checkLabelToMove(opts.to);
  if (opts.from === opts.to) throw new UsageError(`cannot promote '${opts.from}' to itself; give two different labels`);

  const client = await ctx.api();
  const { meta, versions } = await readLabelState(client, name);
  // An unknown source label is "not found" (8), like `prompts get --label`; the core calls it a
  // failed precondition, which is kept for --expect-current and races.
  if (!meta.labels.includes(opts.from)) {
    throw new NotFoundError(`prompt '${name}' has no version labelled '${opts.from}'`, {
      status: 404,
      hint: `Its labels: ${meta.labels.join(', ')}. See them with: llmobs labels list ${shellQuote(name)}`,
    });
  }
  const plan = planPromote(versions, { from: opts.from, to: opts.to, expectCurrent });
  await applyPlan(ctx, client, name, plan, opts.dryRun);
}
