// Unified diffs of two texts (prompt content, configs, model definitions) with a bounded cost.
//
// Myers' algorithm, which the `diff` library uses, takes time that grows with the square of the
// number of changed lines: two 40,000-line prompts that differ everywhere took minutes. Past
// MAX_DIFF_EDITS changed lines the diff is given up and replaced by one hunk that removes every
// line between the common start and the common end and adds the new ones: still a correct
// unified diff, found in linear time, and what a reader needs of a text rewritten that much.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** Changed lines (removed plus added) up to which the smallest diff is searched for. */
export const MAX_DIFF_EDITS = 1000;

/**
 * A unified diff with only `---`/`+++` file headers; '' when the texts are equal. The texts are
 * expected to end in a line break (the callers' renderings do), so no "No newline" marker is needed.
 */
export function unifiedDiff(oldName: string, newName: string, before: string, after: string, options: { context?: number; maxEdits?: number } = {}): string {
  if (before === after) return '';
  const context = options.context ?? 3;
  const patch = createTwoFilesPatch(oldName, newName, before, after, undefined, undefined, {
    context,
    headerOptions: FILE_HEADERS_ONLY,
    maxEditLength: options.maxEdits ?? MAX_DIFF_EDITS,
  });
  return patch ?? replacementPatch(oldName, newName, before, after, context);
}

/** One hunk replacing everything between the lines both texts start and end with. */
function replacementPatch(oldName: string, newName: string, before: string, after: string, context: number): string {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const from = Math.max(0, start - context);
  const leading = a.slice(from, start);
  const trailing = a.slice(a.length - end, a.length - end + Math.min(context, end));
  const removed = a.slice(start, a.length - end);
  const added = b.slice(start, b.length - end);
  const oldCount = leading.length + removed.length + trailing.length;
  const newCount = leading.length + added.length + trailing.length;
  // A side without lines in the hunk is numbered by the line before it, as diff does.
  const range = (count: number) => `${count === 0 ? from : from + 1},${count}`;
  const body = [...leading.map((l) => ` ${l}`), ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`), ...trailing.map((l) => ` ${l}`)];
  return [`--- ${oldName}`, `+++ ${newName}`, `@@ -${range(oldCount)} +${range(newCount)} @@`, ...body, ''].join('\n');
}

function lines(text: string): string[] {
  const split = text.split('\n');
  if (split[split.length - 1] === '') split.pop();
  return split;
}
