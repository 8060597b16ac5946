import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../../src/core/shell-quote.js';

describe('small parsers', () => {

  it('quotes names for a shell only when needed', () => {
    expect(shellQuote('team/app/summary')).toBe('team/app/summary');
    expect(shellQuote("it's mine")).toBe(`'it'\\''s mine'`);
  });
});
