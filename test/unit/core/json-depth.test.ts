// The depth of JSON text against the depth of the value it parses to, for any JSON, and against
// a plain character-by-character scan for any text (strings with escaped quotes and backslashes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextDepth, MemberElements, valueDepth } from '../../../src/core/json-depth.js';

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

/** What the scan noted: each element's text and whether it is compact. */
function noted(text: string, key = 'data'): Array<[string, boolean]> {
  const elements = new MemberElements(key);
  jsonTextDepth(text, Infinity, elements);
  expect(elements.ends).toHaveLength(elements.starts.length);
  return elements.starts.map((start, k) => [text.slice(start, elements.ends[k]), elements.compact[k]!]);
}

const element = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));

describe('jsonTextDepth noting a member’s elements', () => {
  it('finds each element of the member as written, compact when written by JSON.stringify', () => {
    fc.assert(fc.property(fc.array(element), fc.dictionary(fc.string().filter((k) => k !== 'data'), fc.jsonValue()), (data, others) => {
        const text = JSON.stringify({ ...others, data, ...others });
        expect(noted(text)).toEqual(data.map((e) => [JSON.stringify(e), true]));
      }), { numRuns: 500 });
  });

  it('marks an element with white space between its tokens, and still finds where it lies', () => {
    fc.assert(fc.property(fc.array(element, { minLength: 1 }), (data) => {
        const text = JSON.stringify({ meta: {}, data }, null, 2);
        const found = noted(text);
        expect(found.map(([json]) => JSON.parse(json) as unknown)).toEqual(JSON.parse(JSON.stringify(data)));
        // Spaced out, an element is compact only when it has no tokens to space: [] and {}.
        expect(found.map(([, compact]) => compact)).toEqual(data.map((e) => JSON.stringify(e, null, 2) === JSON.stringify(e)));
      }), { numRuns: 300 });
  });

  it('takes the last of a member given twice, as JSON.parse does, and no other member or depth', () => {
    expect(noted('{"data":[{"a":1}],"x":{"data":[{"b":2}]},"data":[{"c":3},[4]]}')).toEqual([['{"c":3}', true], ['[4]', true]]);
    expect(noted('{"database":[{"a":1}],"d":"data","z":[{"b":2}]}')).toEqual([]);
    expect(noted('["data",[{"a":1}]]')).toEqual([]);
    expect(noted('{"data" :\n [ {"a":1} , {"b" : 2} ]}')).toEqual([['{"a":1}', true], ['{"b" : 2}', false]]);
    // Scalars are not listed; a string with brackets and escaped quotes is skipped whole.
    expect(noted('{"data":[1,"x",{"s":"]}\\\"[{"},null]}')).toEqual([['{"s":"]}\\\"[{"}', true]]);
  });

  it('leaves the depth as it was, on any text', () => {
    fc.assert(fc.property(tricky, (text) => {
        expect(jsonTextDepth(text, Infinity, new MemberElements('a'))).toBe(scan(text));
      }), { numRuns: 2000 });
  });
});
