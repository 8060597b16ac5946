// Unified diffs on a terminal in git's colours; piped, exactly as they are.
import type { ChalkInstance } from 'chalk';

/** Colours a unified diff when `out` is a terminal: headers bold, hunk lines cyan, + green, - red. */
export function colourDiff(out: { isTTY: boolean; c: ChalkInstance }, patch: string): string {
  if (!out.isTTY) return patch;
  const { c } = out;
  // The header lines (--- and +++) are told apart from content lines by coming before the first hunk.
  let inHunk = false;
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('@@')) {
        inHunk = true;
        return c.cyan(line);
      }
      if (!inHunk) return c.bold(line);
      if (line.startsWith('+')) return c.green(line);
      if (line.startsWith('-')) return c.red(line);
      return line;
    })
    .join('\n');
}
