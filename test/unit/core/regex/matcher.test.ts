import { describe, expect, it } from 'vitest';
import { compilePattern, describePattern, testPattern, validatePattern } from '../../../../src/core/models/pattern.js';
import { parseAre } from '../../../../src/core/regex/are-parser.js';
import { subjectCaveat, translateAre, areFeatures } from '../../../../src/core/regex/are-to-js.js';
import { compileMatcher, DEFAULT_LIMITS } from '../../../../src/core/regex/matcher.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { parseJsRegex } from '../../../../src/core/regex/js-parser.js';
import { selectPricingTier } from '../../../../src/core/pricing-tier.js';
import type { PricingTier } from '../../../../src/core/models/types.js';
import { pick, rng } from '../../../helpers/rng.js';

const ATOMS = ['a', 'b', 'A', '-', '.', '[ab]', '[^a]', '[a-c]', '\\d', '\\w', '\\s', '\\W', '[[:alpha:]]', '[[:upper:]]', '_', '\\n', ' '];
const ASSERTIONS = ['^', '$', '\\m', '\\M', '\\y', '\\Y', '\\A', '\\Z'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,3}', '{0,2}', '{2,}', '*?', '+?', '??'];

function genNode(r: () => number, depth: number, inLook: boolean): string {
  const roll = r();
  if (depth <= 0 || roll < 0.35) return pick(r, ATOMS);
  if (roll < 0.45) return pick(r, ASSERTIONS);
  if (roll < 0.6) return genNode(r, depth - 1, inLook) + pick(r, QUANTIFIERS);
  if (roll < 0.75) return `(${genSeq(r, depth - 1, inLook)}|${genSeq(r, depth - 1, inLook)})`;
  if (roll < 0.85) return `(?:${genSeq(r, depth - 1, inLook)})${r() < 0.5 ? pick(r, QUANTIFIERS) : ''}`;
  if (roll < 0.93) return `(${genSeq(r, depth - 1, inLook)})${r() < 0.5 ? pick(r, QUANTIFIERS) : ''}`;
  return `(?${pick(r, ['=', '!', '<=', '<!'])}${genSeq(r, depth - 1, true)})`;
}

function genSeq(r: () => number, depth: number, inLook: boolean): string {
  const n = 1 + Math.floor(r() * 3);
  let out = '';
  for (let i = 0; i < n; i++) out += genNode(r, depth, inLook);
  return out;
}

const SUBJECT_CHARS = ['a', 'b', 'A', 'B', '-', '_', ' ', '\n', '1', 'c'];

function genSubject(r: () => number): string {
  const n = Math.floor(r() * 9);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(r, SUBJECT_CHARS);
  return s;
}

describe('the automaton engine agrees with the JavaScript translation', () => {
  it('on 1,500 generated patterns (anchors, word constraints, lookarounds, bounds, options) and 25 subjects each', () => {
    const r = rng(12);
    let compared = 0;
    for (let i = 0; i < 1500; i++) {
      const options = pick(r, ['', '', '(?i)', '(?n)', '(?w)', '(?p)', '(?in)']);
      const pattern = options + genSeq(r, 3, false);
      const parsed = parseAre(pattern);
      if (!parsed.ok) continue;
      const js = translateAre(parsed.parsed);
      const matcher = compileMatcher(parsed.parsed);
      if (!js.ok) continue;
      expect(matcher.ok, pattern).toBe(true);
      if (!matcher.ok) continue;
      const regex = new RegExp(js.translation.source, js.translation.flags);
      const features = areFeatures(parsed.parsed);
      for (let j = 0; j < 25; j++) {
        const subject = genSubject(r);
        if (subjectCaveat(features, parsed.parsed.options.icase, subject) !== null) continue;
        const outcome = matcher.matcher.test(subject);
        expect(outcome.matched, `${JSON.stringify(subject)} ~ ${pattern}`).toBe(regex.test(subject));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(18_000);
  });

  it('on back references to groups that take part in every match', () => {
    const cases: Array<[string, string[]]> = [
      ['^(a|b)\\1$', ['aa', 'bb', 'ab', 'a', '']],
      ['(a+)-\\1', ['aa-aa', 'a-aa', 'aaa-a', 'x-aa-a', 'aa-']],
      ['(?i)^(ab)\\1$', ['abAB', 'aBab', 'abac']],
      ['^(?=(a))(a)\\1$', ['aa', 'a']],
      ['^(\\w+) \\1$', ['go go', 'go og', 'a a', 'ab a']],
      ['^((a)\\2)x\\1$', ['aaxaa', 'aaxa', 'axa']],
      ['\\m(\\w+)\\M.*\\1', ['foo bar foo', 'foo bar', 'x_1 y x_1']],
    ];
    for (const [pattern, subjects] of cases) {
      const parsed = parseAre(pattern);
      if (!parsed.ok) throw new Error(pattern);
      const js = translateAre(parsed.parsed);
      if (!js.ok) throw new Error(js.reason);
      const regex = new RegExp(js.translation.source, js.translation.flags);
      const m = compileMatcher(parsed.parsed);
      if (!m.ok) throw new Error(m.reason);
      expect(m.matcher.bounded).toBe(true);
      for (const s of subjects) expect(m.matcher.test(s).matched, `${s} ~ ${pattern}`).toBe(regex.test(s));
    }
  });

  it('on every built-in definition, against its own name, the catalogue\'s other names and variants of them', () => {
    const defs = builtInDefinitions();
    const names = defs.flatMap((d) => [d.modelName, `openai/${d.modelName.toUpperCase()}`, `${d.modelName}-x\n`]);
    let matches = 0;
    for (const d of defs) {
      const parsed = parseAre(d.matchPattern);
      if (!parsed.ok) throw new Error(d.matchPattern);
      const js = translateAre(parsed.parsed);
      if (!js.ok) throw new Error(js.reason);
      const regex = new RegExp(js.translation.source, js.translation.flags);
      const m = compileMatcher(parsed.parsed);
      if (!m.ok) throw new Error(m.reason);
      for (const name of names) {
        const expected = regex.test(name);
        if (expected) matches++;
        expect(m.matcher.test(name).matched, `${name} ~ ${d.matchPattern}`).toBe(expected);
      }
    }
    expect(matches).toBeGreaterThan(167);
  });
});

// Work is counted in units (automaton states visited while building DFA states, and characters):
// a budget that grows linearly with the name's length must suffice.
function withinLinearBudget(pattern: string, subject: string, unitsPerChar: number): boolean | undefined {
  const parsed = parseAre(pattern);
  if (!parsed.ok) throw new Error(parsed.reason);
  const m = compileMatcher(parsed.parsed, { ...DEFAULT_LIMITS, workBudget: 2_000 + unitsPerChar * subject.length });
  if (!m.ok) throw new Error(m.reason);
  const outcome = m.matcher.test(subject);
  if (outcome.matched === undefined) throw new Error(`${pattern}: ${outcome.error}`);
  return outcome.matched;
}

describe('catastrophic patterns for a backtracking engine', () => {
  const HOSTILE: Array<[string, (n: number) => string, boolean]> = [
    ['(a+)+$', (n) => `${'a'.repeat(n)}!`, false],
    ['(a+)+b', (n) => `${'a'.repeat(n)}b`, true],
    ['^(a+)+$', (n) => `${'a'.repeat(n)}!`, false],
    ['^(a|a)*$', (n) => `${'a'.repeat(n)}!`, false],
    ['^(a|aa)+$', (n) => `${'a'.repeat(n)}b`, false],
    ['^(a*)*b$', (n) => 'a'.repeat(n), false],
    ['^((a+)*)*c$', (n) => 'a'.repeat(n), false],
    ['(?i)^(\\w+\\s?)*$', (n) => `${'word '.repeat(Math.ceil(n / 5))}!`, false],
    ['^(a|b|ab)*c$', (n) => 'ab'.repeat(Math.ceil(n / 2)), false],
    ['^(.*a){12}$', (n) => 'a'.repeat(n) + 'b', false],
    ['^(?=(a+)+$)', (n) => `${'a'.repeat(n)}!`, false],
  ];

  it.each(HOSTILE)('%s is decided with work linear in the length of the name', (pattern, subject, expected) => {
    for (const n of [10, 100, 1_000, 10_000]) {
      expect(withinLinearBudget(pattern, subject(n), 60), `${pattern} at ${n}`).toBe(expected);
    }
  });

  it('answers models match and estimate quickly where V8 takes seconds (31 characters) to forever', () => {
    expect(testPattern('(a+)+$', `${'a'.repeat(31)}!`)).toEqual({ status: 'no-match', exact: true });
    expect(testPattern('^(a|a)*$', `${'a'.repeat(5_000)}!`)).toEqual({ status: 'no-match', exact: true });
    expect(testPattern('(?i)^(a+)+$', `${'A'.repeat(20_000)}b`)).toEqual({ status: 'no-match', exact: true });
  });
});

describe('what cannot be evaluated safely is reported as such', () => {
  it('a back reference whose search would exceed the step budget', () => {
    // (a|a)* gives 2^n ways to split the name; the odd count defeats every one of them.
    const result = testPattern('^((a|a)*)\\1x$', `${'a'.repeat(41)}x`);
    expect(result).toMatchObject({ status: 'error', reason: expect.stringContaining('cannot be evaluated safely') });
    // The same pattern still answers where the search is short or the automaton already says no.
    expect(testPattern('^((a|a)*)\\1x$', 'aaaax')).toEqual({ status: 'match', exact: true });
    expect(testPattern('^((a|a)*)\\1x$', `${'a'.repeat(41)}y`)).toEqual({ status: 'no-match', exact: true });
  });

  it('a pattern whose bounded repetitions multiply out beyond the size limit', () => {
    const c = compilePattern('^((a{255}){255}){255}$');
    expect(c).toMatchObject({ status: 'unsupported', reason: expect.stringContaining('too large') });
    expect(testPattern(c, 'aaa')).toMatchObject({ status: 'error' });
    // Large but within the limit: evaluated.
    expect(testPattern('^(a{100}){100}$', 'a'.repeat(10_000))).toEqual({ status: 'match', exact: true });
  });

  it('parentheses nested thousands deep (a 40 KB pattern) are reported, not a stack overflow', () => {
    for (const open of ['(', '(?:', '(?=']) {
      const deep = `${open.repeat(20_000)}a${')'.repeat(20_000)}`;
      expect(compilePattern(deep), open).toMatchObject({ status: 'unsupported', reason: expect.stringContaining('nested more than 200 deep') });
      expect(testPattern(deep, 'a')).toMatchObject({ status: 'error' });
      expect(validatePattern(deep).valid).toBe('unknown');
      expect(describePattern(deep).status).toBe('unsupported');
      expect(parseJsRegex(deep.slice(0, 5000 * open.length) + 'a' + ')'.repeat(5000), false)).toMatchObject({ ok: false, reason: expect.stringContaining('nested more than 200 deep') });
    }
    // Up to the limit they are evaluated.
    expect(testPattern(`${'('.repeat(200)}a${')'.repeat(200)}`, 'xa')).toEqual({ status: 'match', exact: true });
    // A tree built deeper than the parsers allow still cannot overflow the automaton builder.
    let ast: Parameters<typeof compileMatcher>[0]['ast'] = { type: 'char', cp: 0x61 };
    for (let i = 0; i < 50_000; i++) ast = { type: 'group', capture: null, body: ast };
    expect(compileMatcher({ ast, options: { icase: false, nlStop: false, nlAnch: false, expanded: false, quote: false }, prefix: '', groupCount: 0 })).toEqual({ ok: false, reason: 'it is nested too deeply to evaluate safely' });
  });

  it('more lookarounds than the context has bits for', () => {
    const many = Array.from({ length: 30 }, () => '(?=a)').join('');
    expect(compilePattern(many)).toMatchObject({ status: 'unsupported', reason: expect.stringContaining('lookaround') });
  });
});

describe('pricing-tier usage patterns (JavaScript syntax) run on the same automata', () => {
  const JS_ATOMS = ['a', 'b', 'A', '_', '.', '[ab]', '[^a]', '[a-c]', '\\d', '\\w', '\\s', '\\W', '\\S', '\\D', '\\.', '-', '[\\w-]', '\\u0061', '\\x62', 'é', '{', '}'];
  const JS_ASSERTIONS = ['^', '$', '\\b', '\\B'];

  function genJs(r: () => number, depth: number): string {
    const roll = r();
    if (depth <= 0 || roll < 0.35) return pick(r, JS_ATOMS);
    if (roll < 0.45) return pick(r, JS_ASSERTIONS);
    if (roll < 0.6) return `(?:${genJs(r, depth - 1)}${genJs(r, depth - 1)})${pick(r, QUANTIFIERS)}`;
    if (roll < 0.75) return `(${genJs(r, depth - 1)}|${genJs(r, depth - 1)})`;
    if (roll < 0.85) return `(?${pick(r, ['=', '!', '<=', '<!'])}${genJs(r, depth - 1)})`;
    return genJs(r, depth - 1) + genJs(r, depth - 1);
  }

  it('agree with V8 on 1,200 generated patterns, with and without case', () => {
    const r = rng(7);
    const chars = ['a', 'b', 'A', '_', '-', '1', ' ', '\n', '\r', '\u2028', 'é', 'É', '.', '{', '\u00a0'];
    let compared = 0;
    for (let i = 0; i < 1200; i++) {
      const pattern = genJs(r, 3);
      const icase = r() < 0.5;
      let regex: RegExp;
      try {
        regex = new RegExp(pattern, icase ? 'i' : '');
      } catch {
        continue;
      }
      const parsed = parseJsRegex(pattern, icase);
      expect(parsed.ok, pattern).toBe(true);
      if (!parsed.ok) continue;
      const m = compileMatcher(parsed.parsed, DEFAULT_LIMITS, { codeUnits: true });
      if (!m.ok) throw new Error(m.reason);
      for (let j = 0; j < 20; j++) {
        let key = '';
        for (let k = Math.floor(r() * 7); k > 0; k--) key += pick(r, chars);
        expect(m.matcher.test(key).matched, `${JSON.stringify(key)} ~ /${pattern}/${icase ? 'i' : ''}`).toBe(regex.test(key));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(18_000);
  });

  it('a planted catastrophic condition no longer stalls tier selection', () => {
    const tiers: PricingTier[] = [
      { id: 't1', name: 'planted', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: '^(a|a)*$', operator: 'gt', value: 0, caseSensitive: false }], prices: { input: 1 } },
      { id: 't0', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1 } },
    ];
    const selection = selectPricingTier(tiers, { [`${'a'.repeat(5_000)}!`]: 10, input: 3 });
    expect(selection.tier?.name).toBe('Standard');
    expect(selectPricingTier(tiers, { aaaa: 10 }).tier?.name).toBe('planted');
  });

  it('reports what it does not evaluate instead of running it on V8', () => {
    expect(parseJsRegex('(a)\\1', false)).toMatchObject({ ok: false, reason: expect.stringContaining('back references') });
    expect(parseJsRegex('(?<n>a)', false)).toMatchObject({ ok: false, reason: expect.stringContaining('named groups') });
    expect(parseJsRegex('(', false)).toMatchObject({ ok: false });
    const tiers: PricingTier[] = [
      { id: 't1', name: 'refs', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: '(a)\\1', operator: 'gt', value: 0 }], prices: { input: 1 } },
    ];
    const selection = selectPricingTier(tiers, { aa: 1 });
    const condition = selection.evaluated[0]!.conditions[0]!;
    expect(condition).toMatchObject({ kind: 'usage', passed: false, error: expect.stringContaining('back references') });
  });
});
