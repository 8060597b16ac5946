// "Did you mean ...?" for a name that matches nothing: the names closest to it by edit distance
// on lower-cased names, whole or in their first part, then the names that contain it or that it
// contains (a shortened or a prefixed spelling is many edits away from the name it stands for).
//
// The distance is the Damerau-Levenshtein distance in its restricted form, the optimal string
// alignment distance: insertions, deletions, substitutions, and transpositions of two adjacent
// characters, no substring edited twice. The usual typos of a model name (a missing dash, two
// swapped characters, a wrong digit) are one edit each.
import { compareStrings } from './order.js';

/**
 * The last row of the optimal string alignment table of `a` against `b`: entry j is the distance
 * between `a` and the first j code units of `b`.
 */
function lastRow(a: string, b: string): number[] {
  // Three rows of the table: the one before the previous (for a transposition), the previous
  // and the current.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous;
}

/** Optimal string alignment distance between `a` and `b`, by UTF-16 code unit. */
export function editDistance(a: string, b: string): number {
  return lastRow(a, b)[b.length]!;
}

/** Whether `b` has a part that ends at its `j`-th code unit: the end, or a character not a letter or digit after it. */
function partEnds(b: string, j: number): boolean {
  return j === b.length || !/[\p{L}\p{N}]/u.test(b[j]!);
}

/**
 * The fewest edits that turn `a` into `b`, or into a first part of `b` at least as long as `a`
 * (up to a character not a letter or digit): claude-3-opus is 0 edits from claude-3-opus-20240229.
 */
export function partDistance(a: string, b: string): number {
  const row = lastRow(a, b);
  let best = row[b.length]!;
  for (let j = a.length; j < b.length; j++) if (partEnds(b, j)) best = Math.min(best, row[j]!);
  return best;
}

/** Most edits a suggestion may be away: a third of the name's length, at least one. */
export function maxEdits(name: string): number {
  return Math.max(1, Math.floor(name.length / 3));
}

/** Shortest part that containment counts: shorter ones (`o1`, `4o`) are in too many names. */
const MIN_CONTAINED = 3;

/**
 * The names to suggest for `query`, best first, at most `limit`, each once. First the names at
 * most `maxEdits(query)` edits away, whole or in their first part (a dated snapshot such as
 * claude-3-opus-20240229 for claude-3-opus): fewest edits first, whole names before first parts,
 * then the closest in length. Then the names that contain the query or that the query contains,
 * prefixes first, then the closest in length. Case does not count.
 */
export function closestNames(query: string, names: Iterable<string>, limit = 3): string[] {
  const q = query.toLowerCase();
  const budget = maxEdits(q);
  const close: Array<{ name: string; edits: number; part: boolean; gap: number }> = [];
  const related: Array<{ name: string; prefix: boolean; gap: number }> = [];
  for (const name of new Set(names)) {
    const n = name.toLowerCase();
    const gap = Math.abs(n.length - q.length);
    const edits = partDistance(q, n);
    if (edits <= budget) close.push({ name, edits, part: editDistance(q, n) > edits, gap });
    else if (Math.min(n.length, q.length) >= MIN_CONTAINED && (n.includes(q) || q.includes(n))) related.push({ name, prefix: n.startsWith(q) || q.startsWith(n), gap });
  }
  const byName = (a: { name: string }, b: { name: string }) => compareStrings(a.name, b.name);
  close.sort((a, b) => a.edits - b.edits || Number(a.part) - Number(b.part) || a.gap - b.gap || byName(a, b));
  related.sort((a, b) => Number(b.prefix) - Number(a.prefix) || a.gap - b.gap || byName(a, b));
  return [...close, ...related].slice(0, limit).map((c) => c.name);
}

/** `did you mean a?`, `did you mean a or b?`, `did you mean a, b or c?`; empty without names. */
export function didYouMean(names: readonly string[]): string {
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
  return `did you mean ${list}?`;
}
