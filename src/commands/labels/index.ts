import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { verb } from '../register.js';
import { examples, helpText } from '../examples.js';

const COST = `
Reading labels: the API does not say which version holds which label in one answer, so llmobs
lists the prompt once and fetches the version of each label (1 + number of labels requests, 4 at
a time). Moving a label is one PATCH /api/public/v2/prompts/{name}/versions/{version}.`;

export function registerLabels(program: Command, ctx: Context): void {
  const labels = program
    .command('labels')
    .alias('label')
    .description('see and move prompt labels (production, staging, ...): promotion and rollback without a deploy');
  examples(labels, 'llmobs labels list support/agent', 'llmobs labels promote support/agent --from staging --to production', 'llmobs labels set support/agent production --version 3');

  verb(labels, 'list', () => {
    const list = labels
      .command('list')
      .alias('ls')
      .description('each label of a prompt and the version it points at')
      .argument('<name>', 'prompt name')
      .addHelpText('after', helpText(`${COST}\n\n--json prints {"name": ..., "labels": {"<label>": <version>, ...}}.`))
      .action(lazy(ctx, () => import('./list.js')));
    examples(list, 'llmobs labels list support/agent', "llmobs labels ls support/agent --jq '.labels.production'");
  });

  verb(labels, 'set', () => {
    const set = labels
      .command('set')
      .description('point a label at a version (it leaves the version that had it)')
      .argument('<name>', 'prompt name')
      .argument('<label>', 'label to set, e.g. production')
      .option('--version <n>', 'the version the label should point at (required)')
      .option('--expect-current <n>', 'refuse (exit 9) unless the label is on version n now ("none": on no version)')
      .option('--dry-run', 'print what would change; change nothing')
      .addHelpText('after', helpText(COST))
      .action(lazy(ctx, () => import('./set.js')));
    examples(
      set,
      '# Roll back: production to version 3',
      'llmobs labels set support/agent production --version 3',
      'llmobs labels set support/agent staging --version 5 --expect-current 4 --dry-run',
    );
  });

  verb(labels, 'promote', () => {
    const promote = labels
      .command('promote')
      .description('put label --to on the version that label --from is on, e.g. staging to production')
      .argument('<name>', 'prompt name')
      .option('--from <label>', 'label whose version is promoted (required)')
      .option('--to <label>', 'label that moves to that version (required)')
      .option('--expect-current <n>', 'refuse (exit 9) unless --to is on version n now ("none": on no version); keeps a pipeline from undoing a change it did not see')
      .option('--dry-run', 'print the plan; change nothing')
      .addHelpText('after', helpText(`
  The output (and --json) names the version the label left and the one it points at now; roll back
  with: llmobs labels set <name> <to> --version <left version>. A promotion that changes nothing
  says so and exits 0. --expect-current is checked just before the change: the API has no atomic
  compare-and-set, so it narrows a race between pipelines to a moment but cannot rule it out.
  ${COST}`))
      .action(lazy(ctx, () => import('./promote.js')));
    examples(
      promote,
      'llmobs labels promote support/agent --from staging --to production',
      '# In CI: refuse if someone else moved production since the pipeline looked',
      'llmobs labels promote support/agent --from staging --to production --expect-current 4 --json',
    );
  });

  verb(labels, 'remove', () => {
    const remove = labels
      .command('remove')
      .alias('rm')
      .description('not possible through the API: explains how to move the label instead')
      .argument('<name>', 'prompt name')
      .argument('<label>', 'label')
      .action(lazy(ctx, () => import('./remove.js')));
    examples(remove, 'llmobs labels remove support/agent staging');
  });
}
