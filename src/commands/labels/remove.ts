import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { shellQuote } from '../prompts/shared.js';

/** Says why there is no such operation; never sends anything or pretends to have done it. */
export default async function action(_ctx: Context, { args }: ActionInput): Promise<void> {
  const name = shellQuote(String(args[0]));
  const label = shellQuote(String(args[1]));
  throw new UsageError(`labels cannot be removed through the Langfuse API: it can only add a label to a version or move it to another one. Nothing was changed.`, {
    hint: [
      `Move it to another version:       llmobs labels set ${name} ${label} --version N`,
      `Or delete the version that has it: llmobs prompts delete ${name} --label ${label}  (deletes that version)`,
      'The Langfuse web UI can remove labels.',
    ].join('\n'),
  });
}
