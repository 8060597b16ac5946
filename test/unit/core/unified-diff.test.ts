import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/core/unified-diff.js';

const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} ${i}\n`).join('');

describe('unifiedDiff', () => {
  it('is the smallest diff while the changes are few, and empty for equal texts', () => {
    const before = 'a\nb\nc\nd\n';
    const after = 'a\nB\nc\nd\ne\n';
    expect(unifiedDiff('old', 'new', before, after)).toBe(createTwoFilesPatch('old', 'new', before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY }));
    expect(unifiedDiff('old', 'new', before, before)).toBe('');
  });

  it('past the edit limit, replaces what lies between the common start and end in one hunk', () => {
    const before = 'keep 1\nkeep 2\nkeep 3\nkeep 4\nold a\nold b\nold c\ntail 1\ntail 2\n';
    const after = 'keep 1\nkeep 2\nkeep 3\nkeep 4\nnew a\nnew b\ntail 1\ntail 2\n';
    const patch = unifiedDiff('old', 'new', before, after, { maxEdits: 2 });
    expect(patch).toBe(['--- old', '+++ new', '@@ -2,8 +2,7 @@', ' keep 2', ' keep 3', ' keep 4', '-old a', '-old b', '-old c', '+new a', '+new b', ' tail 1', ' tail 2', ''].join('\n'));
    expect(applyPatch(before, patch)).toBe(after);
  });

  it('gives a patch that turns one text into the other, whichever way it was found', () => {
    const text = fc.array(fc.constantFrom('a\n', 'b\n', 'c\n', '\n', 'd\n'), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 4 }), (before, after, maxEdits, context) => {
        const patch = unifiedDiff('old', 'new', before, after, { maxEdits, context });
        if (before === after) expect(patch).toBe('');
        else expect(applyPatch(before, patch)).toBe(after);
      }),
      { numRuns: 500 },
    );
  });

  it('diffs two long texts that differ on every line without a quadratic search', () => {
    // 40,000 changed lines: the unbounded search takes over a minute on a quiet machine, the bounded one about a second.
    const patch = unifiedDiff('old', 'new', numbered('before', 20_000), numbered('after', 20_000));
    expect(patch.startsWith('--- old\n+++ new\n@@ -1,20000 +1,20000 @@\n-before 0\n')).toBe(true);
    expect(applyPatch(numbered('before', 20_000), patch)).toBe(numbered('after', 20_000));
  }, 20_000);
});
