// llmobs labels promote: put label --to on the version that label --from is on, e.g. staging to production.
import { NotFoundError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { READING_LABELS } from './notes.js';

export default defineCommand({
  name: 'promote',
  summary: 'put label --to on the version that label --from is on, e.g. staging to production',
  args: [
    { name: '<name>', help: 'prompt name' },
  ],
  flags: [
    { flags: '--from <label>', help: 'label whose version is promoted (required)' },
    { flags: '--to <label>', help: 'label that moves to that version (required)' },
    { flags: '--expect-current <n>', help: 'refuse (exit 9) unless --to is on version n now ("none": on no version); keeps a pipeline from undoing a change it did not see' },
    { flags: '--dry-run', help: 'print the plan; change nothing' },
  ],
  notes: `
  The output (and --json) names the version the label left and the one it points
  at now; roll back with: llmobs labels set <name> <to> --version <left
  version>. A promotion that changes nothing says so and exits 0.
  --expect-current is checked just before the change: the API has no atomic
  compare-and-set, so it narrows a race between pipelines to a moment but cannot
  rule it out.
` + READING_LABELS,
  examples: [
    'llmobs labels promote support/agent --from staging --to production',
    '# In CI: refuse if someone else moved production since the pipeline looked',
    'llmobs labels promote support/agent --from staging --to production --expect-current 4 --json',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { readLabelState }, { planPromote }, { checkLabelToMove, parseExpectCurrent, promptName }, { shellQuote }, { applyPlan }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/label-plan.js'), import('../prompts/shared.js'), import('../../core/shell-quote.js'), import('./apply.js')]);
    const opts = parseOptions(
      z.object({
        name: z.string(),
        from: z.string({ message: 'is required: the label whose version is promoted, e.g. --from staging' }).min(1, 'must not be empty'),
        to: z.string({ message: 'is required: the label to move, e.g. --to production' }),
        expectCurrent: z.string().optional(),
        dryRun: z.boolean().default(false),
      }),
      { ...given, name: args[0] },
    );
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
  },
});
