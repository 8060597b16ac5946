import { describe, expect, it } from 'vitest';
import { checkRegexSafety } from '../../../../src/core/regex/js-safety.js';

describe('checkRegexSafety (the safe-regex2 rule the server applies to usage patterns)', () => {
  it.each(['(input|prompt|cached)', '(input)', '^input$', '[a-z]+_tokens', 'a{2,3}', '(?:in|out)put', '\\(x+\\)', 'a|b+'])('accepts %s', (p) => {
    expect(checkRegexSafety(p)).toEqual({ safe: true });
  });

  it.each(['(a+)+', '(a*)*', '(x|y+)+', '((ab)+c)*', '(a?){3}', 'a*?', 'a+?', 'a??'])('rejects nested repetition %s', (p) => {
    expect(checkRegexSafety(p)).toMatchObject({ safe: false });
  });

  it('rejects more than 25 repetitions', () => {
    expect(checkRegexSafety('a*'.repeat(25))).toEqual({ safe: true });
    expect(checkRegexSafety('a*'.repeat(26))).toMatchObject({ safe: false, reason: expect.stringContaining('25') });
  });

  it('rejects what its tokenizer cannot read', () => {
    expect(checkRegexSafety('*a')).toMatchObject({ safe: false });
    expect(checkRegexSafety('(a')).toMatchObject({ safe: false });
    expect(checkRegexSafety('a)')).toMatchObject({ safe: false });
    expect(checkRegexSafety('[a')).toMatchObject({ safe: false });
  });

  it('does not count quantifier characters inside classes or escaped', () => {
    expect(checkRegexSafety('([+*?])+')).toEqual({ safe: true });
    expect(checkRegexSafety('(a\\+)+')).toEqual({ safe: true });
  });
});
