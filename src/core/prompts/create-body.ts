import { validateChatContent } from './chat-content.js';
import { validateCommitMessage } from './commit-message.js';
import { PromptUsageError } from './errors.js';
import { validateLabels } from './label.js';
import { validatePromptName } from './name.js';
import type { ChatItem, PromptContent } from './types.js';
import { assertNoVariablePlaceholderClash } from './variables.js';

export interface CreatePromptInput {
  name: string;
  content: PromptContent;
  labels?: readonly string[];
  /** Omit to keep the tags of the previous version; any list, even empty, replaces the tags of every version. */
  tags?: readonly string[];
  config?: unknown;
  commitMessage?: string;
}

interface CreateBodyCommon {
  name: string;
  labels: string[];
  tags?: string[];
  config: unknown;
  commitMessage?: string;
}

/** The body of `POST /api/public/v2/prompts`. */
export type CreatePromptBody =
  | (CreateBodyCommon & { type: 'text'; prompt: string })
  | (CreateBodyCommon & { type: 'chat'; prompt: ChatItem[] });

/**
 * Validates everything the server would refuse and builds the request body. `latest` is refused
 * in the labels: the server adds it to every new version itself.
 */
export function buildCreatePromptBody(input: CreatePromptInput): CreatePromptBody {
  const name = validatePromptName(input.name);
  const labels = validateLabels(input.labels ?? []);
  const config = input.config === undefined ? {} : assertJson(input.config, 'config');
  const commitMessage = input.commitMessage === undefined ? undefined : validateCommitMessage(input.commitMessage);

  const rest = {
    labels,
    ...(input.tags === undefined ? {} : { tags: [...new Set(input.tags)] }),
    config,
    ...(commitMessage === undefined ? {} : { commitMessage }),
  };

  if (input.content.type === 'text') return { name, type: 'text', prompt: input.content.prompt, ...rest };
  // Rebuilt from the validated messages so each goes out as exactly `{role, content}` or
  // `{type: "placeholder", name}`, whatever else the caller's objects carried.
  const prompt = validateChatContent(input.content.prompt);
  assertNoVariablePlaceholderClash(prompt);
  return { name, type: 'chat', prompt, ...rest };
}

/** Refuses values JSON would silently change (NaN and Infinity become null, undefined vanishes). */
function assertJson(value: unknown, path: string): unknown {
  const fail = (what: string): never => {
    throw new PromptUsageError(`The ${path.split(/[.[]/)[0]} is not plain JSON: ${path} is ${what}.`);
  };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : fail(String(value));
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => assertJson(item, `${path}[${index}]`));
    return value;
  }
  if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) assertJson(item, `${path}.${key}`);
    return value;
  }
  return fail(`a ${typeof value}`);
}
