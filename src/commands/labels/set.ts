import { z } from 'zod';
import { readLabelState } from '../../api/prompts.js';
import type { Context } from '../../context.js';
import { planSetLabel } from '../../core/prompts/label-plan.js';
import { parseVersion } from '../../core/prompts/selector.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { checkLabelToMove, parseExpectCurrent, promptName } from '../prompts/shared.js';
import { applyPlan } from './apply.js';

const Options = z.object({
  name: z.string(),
  label: z.string(),
  version: z.string({ message: 'is required: the version the label should point at' }),
  expectCurrent: z.string().optional(),
  dryRun: z.boolean().default(false),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0], label: args[1] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  const name = promptName(opts.name);
  const version = parseVersion(opts.version);
  const expectCurrent = parseExpectCurrent(opts.expectCurrent);
  checkLabelToMove(opts.label);

  const client = await ctx.api();
  const { versions } = await readLabelState(client, name);
  const plan = planSetLabel(versions, opts.label, version, { expectCurrent });
  await applyPlan(ctx, client, name, plan, opts.dryRun);
}
