import { describe, expect, it } from 'vitest';
import { compilePattern, describePattern, testPattern, validatePattern } from '../../../../src/core/models/pattern.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';

const matches = (pattern: string, subject: string): boolean => {
  const r = testPattern(pattern, subject);
  if (r.status === 'error') throw new Error(r.reason);
  if (!r.exact) throw new Error(`inexact: ${r.reason}`);
  return r.status === 'match';
};

// Catalogue entries whose display name is not a model id their pattern accepts (dots instead of
// dashes, fine-tune prefixes without the suffix parts, "vision-preview" spelt differently),
// with an id the pattern is written for.
const NAME_NOT_MATCHED: Record<string, string> = {
  'gpt-4-turbo-vision': 'gpt-4-1106-vision-preview',
  'ft:gpt-3.5-turbo-1106': 'ft:gpt-3.5-turbo-1106:my-org::abc123',
  'ft:gpt-3.5-turbo-0613': 'ft:gpt-3.5-turbo-0613:my-org::abc123',
  'ft:davinci-002': 'ft:davinci-002:my-org::abc123',
  'ft:babbage-002': 'ft:babbage-002:my-org::abc123',
  'claude-3.5-sonnet-20241022': 'claude-3-5-sonnet-20241022',
  'claude-3.5-sonnet-latest': 'claude-3-5-sonnet-latest',
  'claude-3.5-haiku-latest': 'claude-3-5-haiku-latest',
  'claude-3.7-sonnet-latest': 'claude-3-7-sonnet-latest',
};

describe('catalogue patterns', () => {
  it('all 167 built-in patterns compile to an exact JS equivalent', () => {
    const defs = builtInDefinitions();
    expect(defs).toHaveLength(167);
    for (const d of defs) {
      const c = compilePattern(d.matchPattern);
      expect(c.status, d.matchPattern).toBe('ok');
      expect(matches(d.matchPattern, d.modelName), `${d.modelName} ~ ${d.matchPattern}`).toBe(!NAME_NOT_MATCHED[d.modelName]);
    }
  });

  it('all start with (?i) and are anchored ^...$', () => {
    for (const d of builtInDefinitions()) {
      expect(d.matchPattern.startsWith('(?i)^'), d.matchPattern).toBe(true);
      expect(d.matchPattern.endsWith('$'), d.matchPattern).toBe(true);
    }
  });

  it('match the real ids of the definitions whose display name is not an id', () => {
    const byName = new Map(builtInDefinitions().map((d) => [d.modelName, d]));
    for (const [name, realId] of Object.entries(NAME_NOT_MATCHED)) {
      const d = byName.get(name);
      expect(d, name).toBeDefined();
      expect(matches(d!.matchPattern, realId), `${realId} ~ ${d!.matchPattern}`).toBe(true);
    }
  });

  it('match case-insensitively through (?i), with the optional provider prefix', () => {
    const p = '(?i)^(openai/)?(gpt-4o)$';
    expect(matches(p, 'gpt-4o')).toBe(true);
    expect(matches(p, 'GPT-4O')).toBe(true);
    expect(matches(p, 'openai/gpt-4o')).toBe(true);
    expect(matches(p, 'gpt-4o-mini')).toBe(false);
  });

  it('use the model string exactly: "gpt-4o " with a trailing space does not match', () => {
    expect(matches('(?i)^(openai/)?(gpt-4o)$', 'gpt-4o ')).toBe(false);
    expect(matches('(?i)^(openai/)?(gpt-4o)$', ' gpt-4o')).toBe(false);
  });

  it('accept a doubled end anchor ($$) as Postgres does', () => {
    expect(matches('(?i)^(ft:)(davinci-002:)(.+)(:)(.*)(:)(.+)$$', 'ft:davinci-002:org::abc')).toBe(true);
  });
});

describe('Postgres semantics', () => {
  it('is case-sensitive without (?i)', () => {
    expect(matches('gpt-4o', 'GPT-4o')).toBe(false);
    expect(matches('(?c)gpt', 'GPT')).toBe(false);
    expect(matches('(?ic)gpt', 'GPT')).toBe(false);
    expect(matches('(?ci)gpt', 'GPT')).toBe(true);
  });

  it('matches substrings when unanchored: gpt-4.* matches gpt-4-turbo', () => {
    expect(matches('gpt-4.*', 'gpt-4-turbo')).toBe(true);
    expect(matches('gpt-4', 'my-gpt-4-copy')).toBe(true);
  });

  it('lets . match a newline and anchors only at the string ends by default', () => {
    expect(matches('^a.b$', 'a\nb')).toBe(true);
    expect(matches('^b', 'a\nb')).toBe(false);
    expect(matches('[^x]', '\n')).toBe(true);
  });

  it('supports the newline-sensitive options n, p and w', () => {
    expect(matches('(?n)^b$', 'a\nb')).toBe(true);
    expect(matches('(?n)a.b', 'a\nb')).toBe(false);
    expect(matches('(?n)a[^x]b', 'a\nb')).toBe(false);
    expect(matches('(?p)^b', 'a\nb')).toBe(false);
    expect(matches('(?p)a.b', 'a\nb')).toBe(false);
    expect(matches('(?w)^b', 'a\nb')).toBe(true);
    expect(matches('(?w)a.b', 'a\nb')).toBe(true);
    // Only \n separates lines in Postgres, unlike JS's multiline mode.
    expect(matches('(?n)^b', 'a\rb')).toBe(false);
  });

  it('treats \\A and \\Z as string anchors even in newline-sensitive mode', () => {
    expect(matches('(?n)\\Ab', 'a\nb')).toBe(false);
    expect(matches('(?n)a\\Z', 'a\nb')).toBe(false);
    expect(matches('(?n)b\\Z', 'a\nb')).toBe(true);
  });

  it('translates the word constraints \\m \\M \\y \\Y and [[:<:]] [[:>:]]', () => {
    expect(matches('\\mgpt', 'openai/gpt-4')).toBe(true);
    expect(matches('\\mpt', 'gpt')).toBe(false);
    expect(matches('4\\M', 'gpt-4 x')).toBe(true);
    expect(matches('g\\M', 'gpt')).toBe(false);
    expect(matches('\\y4\\y', 'gpt-4')).toBe(true);
    expect(matches('p\\Yt', 'gpt')).toBe(true);
    expect(matches('p\\yt', 'gpt')).toBe(false);
    expect(matches('[[:<:]]gpt[[:>:]]', 'a gpt b')).toBe(true);
    expect(matches('[[:<:]]pt', 'gpt')).toBe(false);
  });

  it('reads \\b as backspace and \\B as a backslash, not as word boundaries', () => {
    expect(matches('a\\bb', 'a\bb')).toBe(true);
    expect(matches('a\\bb', 'a b')).toBe(false);
    expect(matches('a\\Bb', 'a\\b')).toBe(true);
  });

  it('supports POSIX classes and class escapes on ASCII', () => {
    expect(matches('^[[:alpha:]]+-[[:digit:]]$', 'gpt-4')).toBe(true);
    expect(matches('^[[:alnum:]_]+$', 'a_1')).toBe(true);
    expect(matches('^\\w+$', 'a_1')).toBe(true);
    expect(matches('^\\d+$', '12')).toBe(true);
    expect(matches('\\s', 'a b')).toBe(true);
    expect(matches('^\\S+$', 'a b')).toBe(false);
    expect(matches('^[a-c\\d]+$', 'ab12')).toBe(true);
    expect(matches('^[[:punct:]]$', '-')).toBe(true);
    expect(matches('(?i)^[[:lower:]]+$', 'ABC')).toBe(true);
  });

  it('decodes character-entry escapes', () => {
    expect(matches('^\\x41$', 'A')).toBe(true);
    expect(matches('^\\u0041$', 'A')).toBe(true);
    expect(matches('^\\U0001F600$', '😀')).toBe(true);
    expect(matches('^\\101$', 'A')).toBe(true);
    expect(matches('^\\cA$', '\u0001')).toBe(true);
    expect(matches('^\\e$', '\u001b')).toBe(true);
    expect(matches('^a\\.b$', 'a.b')).toBe(true);
    expect(matches('^a\\.b$', 'axb')).toBe(false);
  });

  it('resolves digits after a backslash like Postgres: back reference or octal', () => {
    expect(matches('^(a)\\1$', 'aa')).toBe(true);
    expect(matches('^([bc])\\1$', 'bc')).toBe(false);
    // Only one group exists, so \12 is the octal escape for a newline.
    expect(matches('^(a)\\12$', 'a\n')).toBe(true);
    // A third octal digit that would overflow a byte is given back: \777 is "?" then "7".
    expect(matches('^\\777$', '?7')).toBe(true);
  });

  it('counts a non-BMP character as one character', () => {
    expect(matches('^.$', '😀')).toBe(true);
    expect(matches('^[^a]$', '😀')).toBe(true);
  });

  it('applies bounds, lazy quantifiers and literal braces', () => {
    expect(matches('^a{2,3}$', 'aaa')).toBe(true);
    expect(matches('^a{2,3}$', 'aaaa')).toBe(false);
    expect(matches('^a{2}?$', 'aa')).toBe(true);
    expect(matches('^a+?$', 'aaa')).toBe(true);
    expect(matches('a{,2}', 'a{,2}')).toBe(true);
    expect(matches('x{y', 'x{y')).toBe(true);
    expect(matches('a}', 'a}')).toBe(true);
    expect(matches('a]', 'a]')).toBe(true);
  });

  it('parses bracket expressions the POSIX way', () => {
    expect(matches('^[]a]+$', ']a')).toBe(true);
    expect(matches('^[^]a]$', 'b')).toBe(true);
    expect(matches('^[a-]$', '-')).toBe(true);
    expect(matches('^[-a]$', '-')).toBe(true);
    expect(matches('^[\\]]$', ']')).toBe(true);
    expect(matches('^[[.-.]]$', '-')).toBe(true);
    expect(matches('^[[=a=]]$', 'a')).toBe(true);
    expect(matches('^[a[]$', '[')).toBe(true);
  });

  it('supports expanded syntax, comments and the literal directors', () => {
    expect(matches('(?x) ^ gpt - 4  # the model\n $', 'gpt-4')).toBe(true);
    expect(matches('(?x)a\\ b', 'a b')).toBe(true);
    expect(matches('(?x)a[ ]b', 'a b')).toBe(true);
    expect(matches('(?x)a{1, 2}b', 'aab')).toBe(true);
    expect(matches('^a(?#comment)b$', 'ab')).toBe(true);
    expect(matches('^a(?#comment)*$', 'aaa')).toBe(true);
    expect(matches('***=a.b', 'a.b')).toBe(true);
    expect(matches('***=a.b', 'axb')).toBe(false);
    expect(matches('(?q)a.b', 'axb')).toBe(false);
    expect(matches('***:(?i)^GPT$', 'gpt')).toBe(true);
  });

  it('supports lookahead and lookbehind, where parentheses do not capture', () => {
    expect(matches('^gpt(?=-4)', 'gpt-4')).toBe(true);
    expect(matches('^gpt(?!-4)', 'gpt-4')).toBe(false);
    expect(matches('(?<=openai/)gpt', 'openai/gpt')).toBe(true);
    expect(matches('(?<!openai/)gpt', 'openai/gpt')).toBe(false);
    // The group inside the lookahead does not count: \1 refers to (b).
    expect(matches('^(?=(a))(a)\\1$', 'aa')).toBe(true);
  });
});

describe('patterns that cannot be evaluated offline', () => {
  it('reports back references to optional or repeated groups', () => {
    expect(testPattern('(a)?b\\1', 'b')).toMatchObject({ status: 'error' });
    expect(testPattern('(?:(a)|b)\\1', 'aa')).toMatchObject({ status: 'error' });
    // A group that always takes part is fine, whatever it contains.
    expect(matches('^(a|b)\\1$', 'bb')).toBe(true);
    expect(compilePattern('((a)\\2)*')).toMatchObject({ status: 'unsupported' });
  });

  it('reports BRE/ERE modes and named collating elements', () => {
    expect(compilePattern('(?b)a')).toMatchObject({ status: 'unsupported' });
    expect(compilePattern('(?e)a')).toMatchObject({ status: 'unsupported' });
    expect(compilePattern('[[.hyphen.]]')).toMatchObject({ status: 'unsupported' });
    expect(compilePattern('[\\D]')).toMatchObject({ status: 'unsupported' });
  });

  it('flags subjects whose result depends on the database locale', () => {
    expect(testPattern('^\\w+$', 'modèle')).toMatchObject({ exact: false });
    expect(testPattern('(?i)^é$', 'É')).toMatchObject({ exact: false });
    expect(testPattern('(?i)^k$', '\u212a')).toMatchObject({ exact: false });
    // A non-ASCII subject is fine when nothing locale-dependent is involved.
    expect(testPattern('(?i)^gpt-4o$', 'gpt-4ö')).toEqual({ status: 'no-match', exact: true });
    expect(testPattern('^é$', 'é')).toEqual({ status: 'match', exact: true });
  });

  it('flags subjects Postgres text cannot hold', () => {
    expect(testPattern('a', 'a\u0000')).toMatchObject({ exact: false });
    expect(testPattern('a', 'a\ud800')).toMatchObject({ exact: false });
  });
});

describe('validatePattern', () => {
  it.each([
    ['[][', 'brackets'],
    ['(?i)(?i)x', 'quantifier'],
    ['a**', 'quantifier'],
    ['*a', 'quantifier'],
    ['a|*b', 'quantifier'],
    ['^*', 'quantifier'],
    ['(?=a)*', 'quantifier'],
    ['(?z)a', 'embedded option'],
    ['(?i', 'embedded option'],
    ['a{3,2}', 'repetition'],
    ['a{256}', 'repetition'],
    ['a{1', 'repetition'],
    ['\\q', 'escape'],
    ['a\\', 'escape'],
    ['\\u12', 'escape'],
    ['\\89', 'escape'],
    ['(a', 'parentheses'],
    ['a)', 'parentheses'],
    ['\\1(a)', 'backreference'],
    ['(a\\1)', 'backreference'],
    ['\\2(a)', 'backreference'],
    ['[z-a]', 'range'],
    ['[a-c-e]', 'range'],
    ['[[:alpha:]-z]', 'range'],
    ['[[:foo:]]', 'character class'],
    ['(?=(a)\\1)', 'backreference'],
    ['(a)(?=\\1)', 'back references'],
    ['***x', 'director'],
    ['[\\m]', 'escape'],
  ])('rejects %s', (pattern, reason) => {
    const v = validatePattern(pattern);
    expect(v.valid).toBe(false);
    expect(v.valid === false && v.reason).toContain(reason);
  });

  it.each(['', '(?i)', 'a|', '()', '(a|)', 'a{0}', 'a{255}', '[a-a]', '(?:a)', '(a)\\10'])('accepts %s', (pattern) => {
    expect(validatePattern(pattern)).toEqual({ valid: true });
  });

  it('cannot tell for BRE mode', () => {
    expect(validatePattern('(?b)a')).toMatchObject({ valid: 'unknown' });
  });
});

describe('describePattern', () => {
  it('shows the options and the JS regex used offline', () => {
    const d = describePattern('(?i)^(openai/)?(gpt-4o)$');
    expect(d).toEqual({
      pattern: '(?i)^(openai/)?(gpt-4o)$',
      status: 'ok',
      caseInsensitive: true,
      prefix: '(?i)',
      js: { source: '^(openai\\/)?(gpt-4o)$', flags: 'isu' },
    });
    expect(new RegExp(d.js!.source, d.js!.flags).test('OPENAI/GPT-4O')).toBe(true);
  });

  it('gives the reason for invalid and unsupported patterns', () => {
    expect(describePattern('[')).toMatchObject({ status: 'invalid', reason: expect.stringContaining('brackets') });
    expect(describePattern('(?b)x')).toMatchObject({ status: 'unsupported', reason: expect.stringContaining('basic') });
  });
});
