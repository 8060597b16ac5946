import { describe, expect, it } from 'vitest';
import { stableJson } from '../../../../src/core/prompts/index.js';

describe('stableJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(stableJson({ b: { d: 1, c: [{ z: 1, y: 2 }] }, a: null })).toBe(
      '{\n  "a": null,\n  "b": {\n    "c": [\n      {\n        "y": 2,\n        "z": 1\n      }\n    ],\n    "d": 1\n  }\n}',
    );
  });

  it('keeps a "__proto__" key as data', () => {
    expect(stableJson(JSON.parse('{"__proto__": {"x": 1}, "a": 2}'))).toBe(
      '{\n  "__proto__": {\n    "x": 1\n  },\n  "a": 2\n}',
    );
  });
});
