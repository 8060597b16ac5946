// The caveats read a subject's traits in one pass over its code units: they must give what the
// regular expressions they replace give, on every kind of character that matters.
import { describe, expect, it } from 'vitest';
import type { AreFeatures } from '../../../../src/core/regex/caveat.js';
import { subjectCaveat } from '../../../../src/core/regex/caveat.js';
import { foldAscii } from '../../../../src/core/regex/literal.js';
import { pick, rng } from '../../../helpers/rng.js';

// The earlier implementation, by regular expressions.
function reference(t: AreFeatures, icase: boolean, subject: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/\p{Cs}|\u0000/u.test(subject)) return 'unstorable';
  // eslint-disable-next-line no-control-regex
  const nonAscii = /[^\u0000-\u007f]/.test(subject);
  if (nonAscii && t.usesClasses) return 'classes';
  if (icase) {
    if (/[\u017f\u212a]/.test(subject)) return 'folds';
    if (nonAscii && (t.hasNonAscii || t.hasBackrefs)) return 'locale';
  }
  if (t.negatedEscapeWithNewlineMode && subject.includes('\n')) return 'newline';
  return null;
}

const KIND: Record<string, string> = {
  'the model name contains characters a Postgres text value cannot hold': 'unstorable',
  'the pattern uses character classes or word boundaries, which Postgres applies to non-ASCII characters according to the database locale': 'classes',
  'case-insensitive matching of U+017F or U+212A differs between Postgres and JavaScript': 'folds',
  'case-insensitive matching of non-ASCII characters depends on the database locale': 'locale',
  'how \\D, \\S and \\W treat newlines in newline-sensitive mode is not documented': 'newline',
};

const PIECES = ['a', 'Z', 'gpt-4o', '\n', '\u0000', 'é', '\u017f', '\u212a', '\ud83d\ude00', '\ud83d', '\ude00', '\udbff', '\udc00', 'x\ud800y', '\u00ff', '\uffff', ' '];

describe('subject caveats', () => {
  it('agree with the regular expressions on 20,000 generated subjects and every feature set', () => {
    const r = rng(11);
    for (let i = 0; i < 20_000; i++) {
      let subject = '';
      for (let n = Math.floor(r() * 5); n > 0; n--) subject += pick(r, PIECES);
      const bits = Math.floor(r() * 16);
      const t: AreFeatures = { usesClasses: (bits & 1) !== 0, hasNonAscii: (bits & 2) !== 0, hasBackrefs: (bits & 4) !== 0, negatedEscapeWithNewlineMode: (bits & 8) !== 0 };
      const icase = r() < 0.5;
      const got = subjectCaveat(t, icase, subject);
      expect(got === null ? null : KIND[got], JSON.stringify(subject)).toBe(reference(t, icase, subject));
      expect(foldAscii(subject)).toBe(subject.replace(/[A-Z]/g, (c) => c.toLowerCase()));
    }
  });
});
