// What the three script generators share.
import type { ValueKind } from './tree.js';

export const HEADER = '# Shell completion for llmobs. Generated from the command tree by `npm run completions`; do not edit.';
export const PROFILES_COMMAND = 'command llmobs profile list --names 2>/dev/null';

/** A word a POSIX shell (and fish) reads back unchanged. */
export function q(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function kindText(kind: ValueKind): string {
  return Array.isArray(kind) ? kind.join(' ') : kind;
}

/**
 * A description as a shell shows it beside a candidate: the first clause, without parenthetical
 * remarks, cut after a whole word when still long. A clause ends at `;` or `. ` (so `Node.js`
 * stays whole), or before `e.g.`/`i.e.` examples.
 */
export function summary(text: string, maxLength = 70): string {
  let short = text;
  for (let previous = ''; previous !== short; ) {
    previous = short;
    short = short.replace(/\s*\([^()]+\)/g, '');
  }
  short = short.split(/;\s|\.(?:\s|$)|,?\s+(?:e\.g|i\.e)\./)[0]!.trim();
  if (short.length <= maxLength) return short;
  const cut = short.slice(0, maxLength - 2);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut.slice(0, maxLength - 3)).replace(/[\s,]+$/, '')}...`;
}

