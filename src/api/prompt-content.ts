// A fetched version in the core's terms: its content, and the shapes the diff, sync and copy
// planners compare. Unknown message fields are dropped here, so the core never sees them.
import type { SourceVersion } from '../core/prompts/copy-plan.js';
import type { PromptSide } from '../core/prompts/diff.js';
import type { ServerVersion } from '../core/prompts/sync-plan.js';
import type { ChatItem, PromptContent } from '../core/prompts/types.js';
import type { Prompt } from './schemas/prompts.js';

/** The content of a fetched version in the core's terms (unknown message fields dropped). */
export function contentOf(prompt: Prompt): PromptContent {
  if (prompt.type === 'text') return { type: 'text', prompt: prompt.prompt };
  const items: ChatItem[] = prompt.prompt.map((item) =>
    item.type === 'placeholder' ? { type: 'placeholder', name: String(item.name) } : { role: String(item.role), content: String(item.content) },
  );
  return { type: 'chat', prompt: items };
}

/** A fetched version as one side of `prompts diff`. */
export function diffSideOf(prompt: Prompt): PromptSide {
  return { name: prompt.name, version: prompt.version, labels: prompt.labels, prompt: contentOf(prompt).prompt, config: prompt.config };
}

/** A fetched version as the sync planners compare it. */
export function serverVersionOf(prompt: Prompt): ServerVersion {
  return { version: prompt.version, labels: prompt.labels, content: contentOf(prompt), config: prompt.config ?? {} };
}

/** A fetched version with its commit message, as `prompts copy` carries it over. */
export function sourceVersionOf(prompt: Prompt): SourceVersion {
  return { ...serverVersionOf(prompt), commitMessage: prompt.commitMessage ?? null };
}
