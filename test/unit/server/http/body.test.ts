// The depth of JSON nesting, measured on the text before a body is parsed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepth } from '../../../../src/server/http/body.js';

describe('JSON depth, measured without parsing', () => {
  const depthOf = (value: unknown): number =>
    Array.isArray(value) ? 1 + Math.max(0, ...value.map(depthOf)) : value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

  it('equals the nesting of the parsed value, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent) ?? 'null';
        expect(jsonDepth(text)).toBe(depthOf(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('skips brackets and escaped quotes inside strings', () => {
    expect(jsonDepth('{"a":"[[{{\\\\","b":["\\"]]]\\"",{"c":"\\\\\\"{"}]}')).toBe(3);
    expect(jsonDepth('"[[[["')).toBe(0);
    expect(jsonDepth(`${'['.repeat(600)}${']'.repeat(600)}`)).toBe(600);
    // Unterminated text: whatever was seen before the string that never ends.
    expect(jsonDepth('[[{"a":"no end')).toBe(3);
  });
});
