// llmobs labels list: each label of a prompt and the version it points at.
import { defineCommand } from '../define.js';
import { READING_LABELS } from './notes.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'each label of a prompt and the version it points at',
  args: [
    { name: '<name>', help: 'prompt name' },
  ],
  notes: `${READING_LABELS}

  --json prints {"name": ..., "labels": {"<label>": <version>, ...}}.`,
  examples: [
    'llmobs labels list support/agent',
    'llmobs labels ls support/agent --jq \'.labels.production\'',
  ],
  async run(ctx, { args }) {
    const [{ readLabelState }, { versionByLabel }, { promptName }] = await Promise.all([import('../../api/prompts.js'), import('../../core/prompts/label-map.js'), import('../prompts/shared.js')]);
    const name = promptName(args[0]);
    const { versions } = await readLabelState(await ctx.api(), name);
    const labels = versionByLabel(versions);
    if (ctx.globals.json) return ctx.out.printJson({ name, labels: Object.fromEntries(labels) });
    ctx.out.table(
      [{ header: 'LABEL', style: (text, c) => c.green(text) }, { header: 'VERSION', align: 'right' }],
      [...labels].map(([label, version]) => [label, version]),
    );
  },
});
