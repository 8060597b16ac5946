import { describe, expect, it } from 'vitest';
import { referencedVariables } from '../../../../src/core/prompts/index.js';

describe('referencedVariables', () => {
  it('reads names from every kind of tag through the parse tree', () => {
    expect(
      referencedVariables('{{a}} {{ b }} {{{c}}} {{& d}} {{#e}}{{f}}{{/e}} {{^g}}{{/g}} {{h.i.j}} {{.}} {{! k }} {{> l}}'),
    ).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('follows delimiter changes and ignores braces that are not tags', () => {
    expect(referencedVariables('{ "json": true } {{=<% %>=}}<% x %> {{notATag}}')).toEqual(['x']);
  });
});
