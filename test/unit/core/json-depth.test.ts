// The depth of JSON text against the depth of the value it parses to, for any JSON, and against
// a plain character-by-character scan for any text (strings with escaped quotes and backslashes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextDepth, valueDepth } from '../../../src/core/json-depth.js';

/** The reference: every character looked at, a backslash in a string skipping the next. */
function scan(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return max;
}

const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', ',', ':') });

describe('jsonTextDepth', () => {
  it('equals the parsed value’s depth for any JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
        expect(jsonTextDepth(JSON.stringify(value))).toBe(valueDepth(value));
      }));
  });

  it('equals a character-by-character scan on any text', () => {
    fc.assert(fc.property(tricky, (text) => {
        expect(jsonTextDepth(text)).toBe(scan(text));
      }), { numRuns: 2000 });
  });

  it('stops once past the limit', () => {
    expect(jsonTextDepth('[[[[[[', 3)).toBe(4);
  });
});
