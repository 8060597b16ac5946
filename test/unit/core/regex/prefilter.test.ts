// Literal prefilters: a subject they rule out must never match the pattern (checked against the
// automata on generated patterns and on the catalogue).
import { afterEach, describe, expect, it } from 'vitest';
import { setKnownPatterns, testPattern } from '../../../../src/core/models/pattern.js';
import { parseAre } from '../../../../src/core/regex/are-parser.js';
import { compileMatcher } from '../../../../src/core/regex/matcher.js';
import { literalFormOf, literalMatch, mayMatch, prefilterOf } from '../../../../src/core/regex/prefilter.js';
import { pick, rng } from '../../../helpers/rng.js';

// Literal-heavy, like model names, with everything that is not a literal mixed in.
const ATOMS = ['gpt', '-4o', 'ab', 'A', 'b', '-', '.', '[ab]', '[aB]', '[^a]', '[a-c]', '[0-9]', '\\d', '\\w', '\\s', '[[:alpha:]]', '_', ' ', 'é', 'x{2}', '\\.', '/'];
const ASSERTIONS = ['^', '$', '\\m', '\\M', '\\y', '\\A', '\\Z'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,3}', '{0,2}', '{2,}', '{0}', '+?'];

function genNode(r: () => number, depth: number): string {
  const roll = r();
  if (depth <= 0 || roll < 0.4) return pick(r, ATOMS);
  if (roll < 0.48) return pick(r, ASSERTIONS);
  if (roll < 0.6) return `(${genSeq(r, depth - 1)})${pick(r, QUANTIFIERS)}`;
  if (roll < 0.8) return `(${genSeq(r, depth - 1)}|${genSeq(r, depth - 1)})`;
  if (roll < 0.9) return `(?:${genSeq(r, depth - 1)})`;
  return `(?${pick(r, ['=', '!', '<=', '<!'])}${genSeq(r, depth - 1)})`;
}
function genSeq(r: () => number, depth: number): string {
  let out = '';
  for (let i = 1 + Math.floor(r() * 3); i > 0; i--) out += genNode(r, depth);
  return out;
}
const FRAGMENTS = ['gpt', '-4o', 'GPT', '-4O', 'ab', 'AB', 'a', 'b', 'B', 'x', 'xx', '-', '_', ' ', '1', '.', '/', 'é', 'É', 'c'];
function genSubject(r: () => number): string {
  let s = '';
  for (let i = Math.floor(r() * 7); i > 0; i--) s += pick(r, FRAGMENTS);
  return s;
}

afterEach(() => setKnownPatterns({}));

describe('a literal prefilter', () => {
  it('never rules out a subject that matches (2,000 generated patterns, 40 subjects each)', () => {
    const r = rng(5);
    let matched = 0;
    let ruledOut = 0;
    for (let i = 0; i < 2000; i++) {
      const pattern = pick(r, ['', '', '(?i)', '(?n)', '(?x)']) + genSeq(r, 3);
      const parsed = parseAre(pattern);
      if (!parsed.ok) continue;
      const compiled = compileMatcher(parsed.parsed);
      if (!compiled.ok) continue;
      const prefilter = prefilterOf(parsed.parsed);
      for (let j = 0; j < 40; j++) {
        const subject = genSubject(r);
        const outcome = compiled.matcher.test(subject);
        const may = mayMatch(prefilter, subject);
        if (outcome.matched) {
          matched++;
          expect(may, `${JSON.stringify(subject)} ~ ${pattern} matches, but ${JSON.stringify(prefilter)} rules it out`).toBe(true);
        } else if (!may) ruledOut++;
      }
    }
    expect(matched).toBeGreaterThan(5_000);
    expect(ruledOut).toBeGreaterThan(10_000);
  });

  it('a literal form gives exactly the automata\'s verdict (2,000 generated patterns, 40 subjects each)', () => {
    const r = rng(9);
    let forms = 0;
    let matches = 0;
    for (let i = 0; i < 2000; i++) {
      const pattern = pick(r, ['', '', '(?i)', '(?n)', '(?w)']) + pick(r, ['', '^', '\\A', '^^']) + genSeq(r, 2) + pick(r, ['', '$', '\\Z']);
      const parsed = parseAre(pattern);
      if (!parsed.ok) continue;
      const form = literalFormOf(parsed.parsed);
      if (form === null) continue;
      const compiled = compileMatcher(parsed.parsed);
      if (!compiled.ok) continue;
      forms++;
      for (let j = 0; j < 40; j++) {
        const subject = genSubject(r);
        const matched = compiled.matcher.test(subject).matched;
        if (matched) matches++;
        expect(literalMatch(form, subject), `${JSON.stringify(subject)} ~ ${pattern} (${JSON.stringify(form)})`).toBe(matched);
      }
    }
    expect(forms).toBeGreaterThan(200);
    expect(matches).toBeGreaterThan(500);
  });

  it('a literal form is the strings between the anchors', () => {
    const of = (pattern: string) => {
      const parsed = parseAre(pattern);
      if (!parsed.ok) throw new Error(pattern);
      return literalFormOf(parsed.parsed);
    };
    expect(of('(?i)^(openai/)?(gpt-4o)$')).toEqual({ icase: true, start: true, end: true, strings: ['gpt-4o', 'openai/gpt-4o'] });
    expect(of('^ft:gpt-[34]')).toEqual({ icase: false, start: true, end: false, strings: ['ft:gpt-3', 'ft:gpt-4'] });
    expect(of('mini$')).toEqual({ icase: false, start: false, end: true, strings: ['mini'] });
    expect(of('(?i)^(a|b){2}$')?.strings).toEqual(['aa', 'ab', 'ba', 'bb']);
    // Newline-sensitive anchors, classes, unbounded repetition, lookarounds: no literal form.
    for (const pattern of ['(?n)^gpt$', '^gpt-\\d$', '^gpt-4o.*$', '^gpt(?=-4)', 'a^b', '^[^a]$']) expect(of(pattern), pattern).toBeNull();
  });

  it('holds what every match contains', () => {
    const of = (pattern: string) => {
      const parsed = parseAre(pattern);
      if (!parsed.ok) throw new Error(pattern);
      return prefilterOf(parsed.parsed);
    };
    expect(of('(?i)^(openai/)?(gpt-4o)$')).toEqual({ icase: true, all: [['gpt-4o', 'openai/gpt-4o']] });
    expect(of('(?i)^(openai/)?(gpt-)(35|3.5)(-turbo-1106)$')).toEqual({ icase: true, all: [['-turbo-1106'], ['gpt-', 'openai/gpt-'], ['3', '35']] });
    expect(of('^Claude-\\d')).toEqual({ icase: false, all: [['Claude-']] });
    expect(of('^v[12]')).toEqual({ icase: false, all: [['v1', 'v2']] });
    expect(of('(?i)^GPT-4(o|-turbo)?$')).toEqual({ icase: true, all: [['gpt-4', 'gpt-4-turbo', 'gpt-4o']] });
    // Nothing is required: any name may match.
    expect(of('^(gpt)?.*$').all).toEqual([]);
    expect(of('[[:alpha:]]+').all).toEqual([]);
    expect(of('(ab|.)').all).toEqual([]);
  });

  it('folds only ASCII letters, as the automata do for a case-insensitive pattern', () => {
    const parsed = parseAre('(?i)kelvin');
    if (!parsed.ok) throw new Error('parse');
    const prefilter = prefilterOf(parsed.parsed);
    expect(mayMatch(prefilter, 'KELVIN')).toBe(true);
    expect(mayMatch(prefilter, 'xKeLvInx')).toBe(true);
    // U+212A KELVIN SIGN: JavaScript lower-cases it to "k", the automata do not match it.
    expect(mayMatch(prefilter, '\u212aelvin')).toBe(false);
    expect(testPattern('(?i)kelvin', '\u212aelvin')).toMatchObject({ status: 'no-match' });
  });
});
