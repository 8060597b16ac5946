import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean, editDistance, maxEdits, partDistance } from '../../../src/core/did-you-mean.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';

/** The optimal string alignment distance as its recurrence defines it, memoised: the reference. */
function referenceDistance(a: string, b: string): number {
  const memo = new Map<string, number>();
  const d = (i: number, j: number): number => {
    if (i === 0) return j;
    if (j === 0) return i;
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let best = Math.min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d(i - 2, j - 2) + 1);
    memo.set(key, best);
    return best;
  };
  return d(a.length, b.length);
}

// Short words over a few characters, so that equal characters, swaps and separators are frequent.
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', '4', 'o'), maxLength: 9 });

const CATALOGUE = builtInDefinitions().map((d) => d.modelName);

describe('editDistance', () => {
  it('counts the usual typos as one edit', () => {
    expect(editDistance('gpt4o', 'gpt-4o')).toBe(1);
    expect(editDistance('gtp-4o', 'gpt-4o')).toBe(1);
    expect(editDistance('gpt-4o', 'gpt-4a')).toBe(1);
    expect(editDistance('gpt-4o-', 'gpt-4o')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    // The restricted form: no substring is edited twice, so "ca" to "abc" is 3, not 2.
    expect(editDistance('ca', 'abc')).toBe(3);
  });

  it('is the recurrence of the optimal string alignment distance', () => {
    fc.assert(fc.property(word, word, (a, b) => editDistance(a, b) === referenceDistance(a, b)), { numRuns: 2000 });
  });

  it('is zero only for equal words, symmetric, and between the difference in length and the longer length', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('partDistance', () => {
  it('is the distance to the whole name or to a first part at least as long, up to a separator', () => {
    expect(partDistance('claude-3-opus', 'claude-3-opus-20240229')).toBe(0);
    expect(partDistance('claude-sonnet-4.5', 'claude-sonnet-4-5-20250929')).toBe(1);
    // "gpt" is a first part of gpt-5-mini, but shorter than "gpt5": the parts compared are "gpt-5" and longer.
    expect(partDistance('gpt5', 'gpt-5-mini')).toBe(1);
    // "gpt-4" is no part of gpt-4o (a letter follows it): only the whole name counts.
    expect(partDistance('gpt5', 'gpt-4o')).toBe(3);
  });

  it('is the least distance to the whole word or to one of its first parts, by brute force', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        const parts = [b];
        for (let j = a.length; j < b.length; j++) if (!/[a-z0-9]/.test(b[j]!)) parts.push(b.slice(0, j));
        expect(partDistance(a, b)).toBe(Math.min(...parts.map((part) => referenceDistance(a, part))));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('closestNames', () => {
  it('suggests the catalogue names a newcomer means', () => {
    expect(closestNames('gpt4o', CATALOGUE)[0]).toBe('gpt-4o');
    expect(closestNames('GPT4O', CATALOGUE)[0]).toBe('gpt-4o');
    expect(closestNames('gtp-4o', CATALOGUE)[0]).toBe('gpt-4o');
    expect(closestNames('gpt-4o-mni', CATALOGUE)[0]).toBe('gpt-4o-mini');
    expect(closestNames('claude-3-opus', CATALOGUE)[0]).toBe('claude-3-opus-20240229');
    expect(closestNames('claude-sonnet-4.5', CATALOGUE)[0]).toBe('claude-sonnet-4-5-20250929');
    expect(closestNames('text-embeding-3-small', CATALOGUE)[0]).toBe('text-embedding-3-small');
    // Contained: many edits away, but the same name without its provider's prefix.
    expect(closestNames('sonnet-4-5', CATALOGUE)).toEqual(['claude-sonnet-4-5-20250929']);
    expect(closestNames('my-gpt-4o-deployment', ['gpt-4o', 'gpt-4', 'o1'])).toEqual(['gpt-4o', 'gpt-4']);
  });

  it('suggests nothing for a name like none of them', () => {
    expect(closestNames('my-own-model', CATALOGUE)).toEqual([]);
    expect(closestNames('llama-3', CATALOGUE)).toEqual([]);
  });

  it('puts the nearest first, whole names before first parts, and each name once', () => {
    expect(closestNames('gpt4o', ['gpt-4o-mini', 'gpt-4o', 'gpt-4o'])).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(closestNames('abcd', ['abxd', 'abcd'])).toEqual(['abcd', 'abxd']);
    expect(closestNames('gpt-4o', ['gpt-4o', 'GPT-4O'], 1)).toEqual(['GPT-4O']);
  });

  it('gives at most `limit` names, each among those given and within reach of the query', () => {
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 30 }), fc.integer({ min: 0, max: 5 }), (query, names, limit) => {
        const out = closestNames(query, names, limit);
        expect(out.length).toBeLessThanOrEqual(limit);
        expect(new Set(out).size).toBe(out.length);
        const q = query.toLowerCase();
        for (const name of out) {
          expect(names).toContain(name);
          const n = name.toLowerCase();
          const contained = Math.min(n.length, q.length) >= 3 && (n.includes(q) || q.includes(n));
          expect(partDistance(q, n) <= maxEdits(q) || contained).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('gives a name equal to the query (case aside) first, and keeps the order of nearness', () => {
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 30 }), (query, names) => {
        const all = [...names, query.toUpperCase()];
        const out = closestNames(query, all, all.length);
        if (query.length > 0) expect(out[0]!.toLowerCase()).toBe(query.toLowerCase());
        const close = out.filter((name) => partDistance(query.toLowerCase(), name.toLowerCase()) <= maxEdits(query));
        const edits = close.map((name) => partDistance(query.toLowerCase(), name.toLowerCase()));
        expect(edits).toEqual([...edits].sort((a, b) => a - b));
        // The close names come before the merely related ones.
        expect(out.slice(0, close.length)).toEqual(close);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('didYouMean', () => {
  it('lists one, two or three names', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['gpt-4o'])).toBe('did you mean gpt-4o?');
    expect(didYouMean(['gpt-4o', 'gpt-4'])).toBe('did you mean gpt-4o or gpt-4?');
    expect(didYouMean(['a', 'b', 'c'])).toBe('did you mean a, b or c?');
  });
});
