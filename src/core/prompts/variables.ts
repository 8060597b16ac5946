import { PromptUsageError } from './errors.js';
import { isPlaceholder, type ChatItem } from './types.js';

const MUSTACHE_TAG = /{{([^{}]*)}}/g;
const VARIABLE_NAME = /^\p{L}[\p{L}\p{N}_]*$/u;

/**
 * Variable names as the server extracts them (`extractVariables`): the inside of each `{{...}}`,
 * untrimmed, kept only if it is a plain name. So `{{ name }}`, `{{#name}}` and `{{a.b}}` are not
 * variables to the server. This exists for the clash check below; compile analysis walks the
 * mustache parse tree instead (see template.ts).
 */
export function extractVariables(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(MUSTACHE_TAG)) {
    const inside = match[1] ?? '';
    if (VARIABLE_NAME.test(inside)) names.push(inside);
  }
  return [...new Set(names)];
}

/** Names used both as a variable in some message and as a placeholder, in first-use order. */
export function findVariablePlaceholderClashes(messages: readonly ChatItem[]): string[] {
  const placeholders = new Set(messages.filter(isPlaceholder).map((item) => item.name));
  const variables = new Set(
    messages.flatMap((item) => (isPlaceholder(item) ? [] : extractVariables(item.content))),
  );
  return [...variables].filter((name) => placeholders.has(name));
}

/** Refuses what the server answers with 400, using its wording. */
export function assertNoVariablePlaceholderClash(messages: readonly ChatItem[]): void {
  const clashes = findVariablePlaceholderClashes(messages);
  if (clashes.length > 0) {
    throw new PromptUsageError(
      `Cannot create prompt, variables and placeholders must be unique, the following are not: ${clashes.join(', ')}`,
      'Rename the variable or the placeholder.',
    );
  }
}
