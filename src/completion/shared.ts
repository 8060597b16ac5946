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

export function summary(text: string): string {
  const short = text.split(/[.;(]/)[0]!.trim();
  return short.length > 70 ? `${short.slice(0, 67)}...` : short;
}

