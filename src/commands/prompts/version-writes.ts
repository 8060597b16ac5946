// What the verbs that write versions (create, push, labels set and promote) share: retrying a
// create that collided with concurrent ones, and checking the labels a write answered with.
import { type CreateRetry, PROMPTS_PATH, promptPath } from '../../api/prompts.js';
import type { Prompt } from '../../api/schemas/prompts.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import { shellQuote } from '../../core/shell-quote.js';

/** A create that collided with concurrent creates is tried again up to --retries times. */
export function createRetry(ctx: Context): CreateRetry {
  return {
    retries: ctx.globals.retries,
    sleep: ctx.sleep,
    random: ctx.random,
    onConflict: (delay) => ctx.trace(`  version conflict with a concurrent create; trying again in ${delay} ms`),
  };
}

/**
 * A write the server accepted must have put the labels where they were asked for; if the
 * version it answered with lacks one, what was meant did not happen.
 */
export function checkLabelsListed(prompt: Prompt, labels: readonly string[], method: 'POST' | 'PATCH'): void {
  const missing = labels.filter((label) => !prompt.labels.includes(label));
  if (missing.length === 0) return;
  throw new ApiError(`the server accepted the change but version ${prompt.version} of '${prompt.name}' does not list the label${missing.length === 1 ? '' : 's'} ${missing.map((label) => `'${label}'`).join(', ')}`, {
    status: 200,
    method,
    path: method === 'POST' ? PROMPTS_PATH : `${promptPath(prompt.name)}/versions/${prompt.version}`,
    hint: `Check with: llmobs labels list ${shellQuote(prompt.name)}`,
  });
}
