import { readLabelState } from '../../api/prompts.js';
import type { Context } from '../../context.js';
import { versionByLabel } from '../../core/prompts/label-map.js';
import type { ActionInput } from '../action.js';
import { promptName } from '../prompts/shared.js';

export default async function action(ctx: Context, { args }: ActionInput): Promise<void> {
  const name = promptName(args[0]);
  const { versions } = await readLabelState(await ctx.api(), name);
  const labels = versionByLabel(versions);
  if (ctx.globals.json) return ctx.out.printJson({ name, labels: Object.fromEntries(labels) });
  ctx.out.table(
    [{ header: 'LABEL', style: (text, c) => c.green(text) }, { header: 'VERSION', align: 'right' }],
    [...labels].map(([label, version]) => [label, version]),
  );
}
