// How `prompts copy` shows its plan, before (--dry-run) or after it is carried out.
import type { Context } from '../../context.js';
import type { CopyPlan } from '../../core/prompts/copy-plan.js';

/** A row per prompt: what was (or would be) written, and with --all-versions which version became which. */
export function printCopyPlan(ctx: Context, plan: CopyPlan, allVersions: boolean, dryRun: boolean): void {
  if (ctx.globals.json) {
    ctx.out.printJson({
      dryRun,
      prompts: plan.prompts.map((p) => ({ name: p.name, mapping: p.mapping, steps: p.steps.map((s) => (s.kind === 'create' ? { kind: s.kind, sourceVersion: s.sourceVersion, version: s.expectVersion, labels: s.body.labels } : s)) })),
    });
    return;
  }
  const rows = plan.prompts.map((p) => {
    const creates = p.steps.filter((s) => s.kind === 'create').length;
    const moves = p.steps.filter((s) => s.kind === 'move-labels').length;
    const what = creates + moves === 0 ? 'unchanged' : [creates ? `${creates} version${creates === 1 ? '' : 's'}` : '', moves ? `${moves} label move${moves === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
    const mapping = p.mapping.map((m) => `${m.source}→${m.destination}${m.created ? (dryRun ? ' (new)' : ' (created)') : ''}`).join(', ');
    return allVersions ? [p.name, what, mapping] : [p.name, what];
  });
  ctx.out.table(allVersions ? [{ header: 'NAME' }, { header: dryRun ? 'WOULD WRITE' : 'WRITTEN' }, { header: 'VERSIONS (SOURCE→DESTINATION)' }] : [{ header: 'NAME' }, { header: dryRun ? 'WOULD WRITE' : 'WRITTEN' }], rows);
}
