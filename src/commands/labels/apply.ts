// Carries out a label plan and reports it the same way for `labels set` and `labels promote`.
import { addLabels } from '../../api/prompts.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { LabelPlan, PromotePlan } from '../../core/prompts/label-plan.js';
import { shellQuote } from '../../core/shell-quote.js';
import { checkLabelsListed } from '../prompts/version-writes.js';

export async function applyPlan(ctx: Context, client: ApiClient, name: string, plan: LabelPlan | PromotePlan, dryRun: boolean): Promise<void> {
  const { label, previousVersion, targetVersion } = plan;
  const changed = plan.update !== null && !dryRun;
  if (plan.update !== null && !dryRun) {
    checkLabelsListed(await addLabels(client, name, plan.update.version, plan.update.newLabels), [label], 'PATCH');
  }
  // Guarded as the change was: it refuses should someone have moved the label since. It names the
  // profile or server chosen on the command line, so that it reaches the same project.
  const target = [
    ...(ctx.globals.profile ? [`--profile ${shellQuote(ctx.globals.profile)}`] : []),
    ...(ctx.globals.baseUrl ? [`--base-url ${shellQuote(ctx.globals.baseUrl)}`] : []),
  ];
  const rollbackCommand = plan.rollback
    ? [`llmobs labels set ${shellQuote(name)} ${shellQuote(label)} --version ${plan.rollback.version} --expect-current ${targetVersion}`, ...target].join(' ')
    : null;

  if (ctx.globals.json) {
    ctx.out.printJson({
      name,
      label,
      ...('from' in plan ? { from: plan.from } : {}),
      previousVersion,
      version: targetVersion,
      noop: plan.noop,
      dryRun,
      changed,
      rollback: plan.rollback ? { label, version: plan.rollback.version } : null,
      rollbackCommand,
    });
    return;
  }

  const at = (version: number | null) => (version === null ? 'no version' : `version ${version}`);
  const pairs: Array<readonly [string, string]> = [['Prompt', name], ['Label', label]];
  if ('from' in plan) pairs.push(['From', `'${plan.from.label}' (version ${plan.from.version})`]);
  pairs.push(['Was on', at(previousVersion)], [dryRun && !plan.noop ? 'Would be on' : 'Now on', at(targetVersion)]);
  ctx.out.keyValues(pairs);

  if (plan.noop) {
    ctx.out.info(`'${label}' is already on version ${targetVersion}; nothing to change.`);
    return;
  }
  if (dryRun) ctx.out.info('Dry run: nothing was changed.');
  else ctx.out.success(`Moved '${label}' of '${name}' from ${at(previousVersion)} to version ${targetVersion}`);
  if (rollbackCommand) ctx.out.hint(`${dryRun ? 'It would be rolled back' : 'Roll back'} with: ${rollbackCommand}`);
  else ctx.out.hint(`'${label}' was on no version before; the API cannot take a label off again, only move it.`);
}
