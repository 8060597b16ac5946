// llmobs labels set: point a label at a version.
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { READING_LABELS } from './notes.js';

export default defineCommand({
  name: 'set',
  summary: 'point a label at a version (it leaves the version that had it)',
  args: [
    { name: '<name>', help: 'prompt name' },
    { name: '<label>', help: 'label to set, e.g. production' },
  ],
  flags: [
    { flags: '--version <n>', help: 'the version the label should point at (required)' },
    { flags: '--expect-current <n>', help: 'refuse (exit 9) unless the label is on version n now ("none": on no version)' },
    { flags: '--dry-run', help: 'print what would change; change nothing' },
  ],
  notes: READING_LABELS,
  examples: [
    '# Roll back: production to version 3',
    'llmobs labels set support/agent production --version 3',
    'llmobs labels set support/agent staging --version 5 --expect-current 4 --dry-run',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { readLabelState }, { planSetLabel }, { parseVersion }, { checkLabelToMove, parseExpectCurrent, promptName }, { applyPlan }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/label-plan.js'), import('../../core/prompts/selector.js'), import('../prompts/shared.js'), import('./apply.js')]);
    const opts = parseOptions(
      z.object({
        name: z.string(),
        label: z.string(),
        version: z.string({ message: 'is required: the version the label should point at' }),
        expectCurrent: z.string().optional(),
        dryRun: z.boolean().default(false),
      }),
      { ...given, name: args[0], label: args[1] },
    );
    const name = promptName(opts.name);
    const version = parseVersion(opts.version);
    const expectCurrent = parseExpectCurrent(opts.expectCurrent);
    checkLabelToMove(opts.label);

    const client = await ctx.api();
    const { versions } = await readLabelState(client, name);
    const plan = planSetLabel(versions, opts.label, version, { expectCurrent });
    await applyPlan(ctx, client, name, plan, opts.dryRun);
  },
});
