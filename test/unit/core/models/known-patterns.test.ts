// The catalogue's patterns known ahead: they answer as compiled patterns do, and their literal
// prefilters rule out most of the catalogue for an everyday name, which is what saves compiling it.
// Patterns not known ahead whose literal form decides them are answered from it, as compiled
// patterns are.
import { afterEach, describe, expect, it } from 'vitest';
import { findModel } from '../../../../src/core/models/match.js';
import { compiledPatternCount, compilePattern, plainLiteral, precomputePatterns, setKnownPatterns, testPattern } from '../../../../src/core/models/pattern.js';
import { areFeatures, literalFormOf, parseAre } from '../../../../src/core/regex/index.js';
import { mayMatch } from '../../../../src/core/regex/prefilter.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';

afterEach(() => setKnownPatterns({}));

describe('the catalogue\'s patterns known ahead', () => {
  const definitions = builtInDefinitions();
  const patterns = definitions.map((d) => d.matchPattern);
  const names = [
    ...definitions.flatMap((d) => [d.modelName, d.modelName.toUpperCase(), `openai/${d.modelName}`, `${d.modelName}-2025-01-01`, d.modelName.slice(0, -1), `x${d.modelName}`]),
    'gpt-4o',
    'GPT-4O',
    '',
    ' gpt-4o',
    'gpt-4o\n',
    'claude-3-5-sonnet-20241022',
    'anthropic.claude-3-haiku-20240307-v1:0',
    'gpt‐4o', // a hyphen that is not ASCII
    'ǧpt-4o',
  ];

  const known = precomputePatterns(patterns);

  it('give every name the verdicts and the match that compiling every pattern gives', () => {
    const verdicts = () => names.map((name) => patterns.map((pattern) => testPattern(pattern, name)));
    const matches = () => names.map((name) => findModel(name, definitions));
    const compiled = { verdicts: names.map((name) => patterns.map((pattern) => testPattern(compilePattern(pattern), name))), matches: matches() };
    expect(verdicts()).toEqual(compiled.verdicts);
    setKnownPatterns(known);
    expect({ verdicts: verdicts(), matches: matches() }).toEqual(compiled);
    expect(compiled.verdicts.flat().filter((v) => v.status === 'match').length).toBeGreaterThan(400);
  });

  it('leave at most a few patterns to compile for an everyday name', () => {
    expect(Object.keys(known).length).toBeGreaterThan(160);
    // Most of the catalogue is a handful of literal names.
    expect(Object.values(known).filter((k) => k.literal).length).toBeGreaterThan(80);
    for (const name of ['gpt-4o', 'claude-3-5-sonnet-20241022', 'gemini-1.5-pro', 'o3-mini', 'text-embedding-3-small']) {
      const toCompile = Object.values(known).filter((k) => !k.literal && mayMatch(k.prefilter, name));
      expect(toCompile.length, name).toBeLessThan(5);
    }
  });

  it('answer each call with an object of its own, as compiled patterns do', () => {
    setKnownPatterns(known);
    const first = testPattern(definitions[0]!.matchPattern, definitions[0]!.modelName);
    const second = testPattern(definitions[0]!.matchPattern, definitions[0]!.modelName);
    expect(first).toEqual({ status: 'match', exact: true });
    expect(first).not.toBe(second);
    (first as { note?: string }).note = 'a caller may keep and change it';
    expect(second).toEqual({ status: 'match', exact: true });
  });

  it('leave out the patterns that cannot be evaluated', () => {
    expect(precomputePatterns(['(?i)^ok$', '(unbalanced', '^((a{255}){255}){255}$', '[[.space.]]'])).toEqual({ '(?i)^ok$': expect.anything() });
  });
});

describe('patterns not known ahead, answered from their literal form', () => {
  const patterns = [
    '(?i)^(my-model)$',
    '(?i)^(openai/)?(my-model)$',
    '^exact$',
    'gpt',
    '(?i)gpt-4o$',
    '(?i)^(a|b|c)$',
    '^gpt-[45]o$',
    '(?i)^(modèle)$',
    '(?i)^(straße)$',
    '(?i)^(x){2}$',
    '(unbalanced',
    `^${'a'.repeat(1001)}$`,
    '^gpt.*$',
    '(?i)^(claude-3-5-sonnet)(-20241022)?$',
  ];
  const names = ['my-model', 'MY-MODEL', 'openai/my-model', 'my-model-2', 'exact', 'EXACT', 'gpt', 'a gpt b', 'GPT-4O', 'x GPT-4o', 'a', 'B', 'ab', 'gpt-4o', 'gpt-5o', 'gpt-6o', 'modèle', 'MODÈLE', 'STRASSE', 'straße', 'xx', 'XX', '', ' my-model', 'my-model\n', 'claude-3-5-sonnet-20241022', 'CLAUDE-3-5-SONNET', 'a'.repeat(1001), 'ſtraße'];

  it('give every name the verdict that compiling the pattern gives', () => {
    for (const pattern of patterns) {
      for (const name of names) expect(testPattern(pattern, name), `${pattern.slice(0, 40)} ~ ${name.slice(0, 40)}`).toEqual(testPattern(compilePattern(pattern), name));
    }
  });

  it('match a new name against thousands of definitions without compiling them', () => {
    const custom = Array.from({ length: 6000 }, (_, i) => ({ ...builtInDefinitions()[0]!, id: `custom-${i}`, modelName: `custom-${i}`, matchPattern: `(?i)^(openai/)?(custom-${i})$`, isLangfuseManaged: false }));
    const before = compiledPatternCount();
    expect(findModel('custom-4321', custom).winner?.definition.id).toBe('custom-4321');
    expect(findModel('OpenAI/Custom-17', custom).winner?.definition.id).toBe('custom-17');
    expect(findModel('a-new-name', custom).winner).toBeNull();
    expect(compiledPatternCount()).toBe(before);
  });

  it('read the literal form of a plain pattern off its text, as parsing it gives', () => {
    // Every pattern over a small alphabet, the characters a plain name allows and some that it does
    // not, in the shapes that have a plain form and some close to them.
    const alphabet = ['a', 'Z', '0', '_', '-', '/', ':', '@', '\\.', '.', ' ', '\\d', '*', 'é', '|', '(', ')'];
    const bodies: string[] = [];
    for (const x of alphabet) for (const y of alphabet) bodies.push(`${x}${y}`, `gpt${x}4o${y}`);
    const shapes = (body: string) => [`(?i)^(${body})$`, `^(${body})$`, `(?i)^${body}$`, `^${body}$`, `(?I)^(${body})$`, `(?i)^(${body}$`, `^${body}`, `${body}$`, `(?i)(${body})$`, `(?i)^((${body}))$`];
    let plain = 0;
    for (const body of bodies) {
      for (const pattern of shapes(body)) {
        const read = plainLiteral(pattern);
        if (read === undefined) continue;
        plain++;
        const parsed = parseAre(pattern);
        expect(parsed.ok, pattern).toBe(true);
        if (!parsed.ok) continue;
        const literal = literalFormOf(parsed.parsed);
        expect(read, pattern).toEqual({ literal, prefilter: { icase: literal!.icase, all: [] }, features: areFeatures(parsed.parsed) });
      }
    }
    // Langfuse's suggested form, and the plain bodies in each plain shape, are read.
    expect(plainLiteral('(?i)^(custom-model-4321)$')?.literal).toEqual({ icase: true, start: true, end: true, strings: ['custom-model-4321'] });
    expect(plainLiteral('^Org/Model\\.v2$')?.literal).toEqual({ icase: false, start: true, end: true, strings: ['Org/Model.v2'] });
    expect(plain).toBeGreaterThanOrEqual(4 * 9 * 9 * 2);
    for (const pattern of ['(?i)^(gpt.4o)$', '(?i)^(a|b)$', '(?i)^(modèle)$', '(?i)^(x)+$', '^gpt-4o', '(?i)^(a b)$', '(?x)^(ab)$']) expect(plainLiteral(pattern), pattern).toBeUndefined();
  });
});
