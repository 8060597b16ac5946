import { unifiedDiff } from '../unified-diff.js';
import { stableJson } from './stable-json.js';
import { isPlaceholder, type ChatItem } from './types.js';

/** One side of a comparison: a fetched version, or local content (no version). */
export interface PromptSide {
  name: string;
  version?: number;
  labels?: readonly string[];
  /** Text content, or chat messages. */
  prompt: string | readonly ChatItem[];
  config?: unknown;
}

/** Unified diffs as plain text; each is empty when that part is the same on both sides. */
export interface PromptDiff {
  content: string;
  config: string;
}

/** `name@v3 (production, latest)`; local content without a version is just its name. */
export function describeSide(side: PromptSide): string {
  const version = side.version === undefined ? '' : `@v${side.version}`;
  const labels = side.labels !== undefined && side.labels.length > 0 ? ` (${side.labels.join(', ')})` : '';
  return `${side.name}${version}${labels}`;
}

/**
 * Content as lines for diffing. Chat messages become blocks under a `--- [i] role` line so a
 * change is shown next to the message it belongs to.
 */
export function renderContentForDiff(prompt: PromptSide['prompt']): string {
  if (typeof prompt === 'string') return withFinalNewline(prompt);
  return prompt
    .map((item, index) =>
      isPlaceholder(item)
        ? `--- [${index}] [placeholder: ${item.name}]\n`
        : `--- [${index}] ${item.role}\n${withFinalNewline(item.content)}`,
    )
    .join('');
}

/** Compares content and config of two prompt versions. */
export function diffPrompts(a: PromptSide, b: PromptSide, options: { context?: number } = {}): PromptDiff {
  const oldName = describeSide(a);
  const newName = describeSide(b);
  const context = options.context ?? 3;
  return {
    content: unifiedDiff(oldName, newName, renderContentForDiff(a.prompt), renderContentForDiff(b.prompt), { context }),
    config: unifiedDiff(`${oldName} config`, `${newName} config`, `${stableJson(a.config ?? {})}\n`, `${stableJson(b.config ?? {})}\n`, { context }),
  };
}

/**
 * Every block ends in a newline so the diff is not littered with "No newline at end of file".
 * Text that already ends in one gets a second, so a trailing newline still shows as a change.
 */
function withFinalNewline(text: string): string {
  return `${text}\n`;
}
