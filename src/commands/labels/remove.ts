// llmobs labels remove: not possible through the API: explains how to move the label instead.
// It never sends anything, nor pretends to have done it.
import { UsageError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm'],
  summary: 'not possible through the API: explains how to move the label instead',
  args: [
    { name: '<name>', help: 'prompt name' },
    { name: '<label>', help: 'label' },
  ],
  examples: [
    'llmobs labels remove support/agent staging',
  ],
  async run(_ctx, { args }) {
    const { shellQuote } = await import('../../core/shell-quote.js');
    const name = shellQuote(String(args[0]));
    const label = shellQuote(String(args[1]));
    throw new UsageError(`labels cannot be removed through the Langfuse API: it can only add a label to a version or move it to another one. Nothing was changed.`, {
      hint: [
        `Move it to another version:       llmobs labels set ${name} ${label} --version N`,
        `Or delete the version that has it: llmobs prompts delete ${name} --label ${label}  (deletes that version)`,
        'The Langfuse web UI can remove labels.',
      ].join('\n'),
    });
  },
});
