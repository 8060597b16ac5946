import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { colourDiff } from '../../../src/output/diff.js';

const patch = ['--- a@v1', '+++ prompts/a.md', '@@ -1,2 +1,2 @@', ' same', '-old', '+new', '--- [0] a line of content that starts like a header', ''].join('\n');

describe('colourDiff', () => {
  it('leaves a piped diff exactly as it is', () => {
    expect(colourDiff({ isTTY: false, c: new Chalk({ level: 1 }) }, patch)).toBe(patch);
  });

  it("gives a terminal git's colours: headers bold, hunk lines cyan, removed red, added green; content after the first hunk is content", () => {
    const c = new Chalk({ level: 1 });
    expect(colourDiff({ isTTY: true, c }, patch).split('\n')).toEqual([
      c.bold('--- a@v1'),
      c.bold('+++ prompts/a.md'),
      c.cyan('@@ -1,2 +1,2 @@'),
      ' same',
      c.red('-old'),
      c.green('+new'),
      c.red('--- [0] a line of content that starts like a header'),
      '',
    ]);
  });
});
