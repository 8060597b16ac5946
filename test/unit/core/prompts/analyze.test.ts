import { describe, expect, it } from 'vitest';
import { analyzeCompile, hasCompileProblems, type CompileAnalysis, type PromptContent } from '../../../../src/core/prompts/index.js';

const text = (prompt: string): PromptContent => ({ type: 'text', prompt });
const clean: CompileAnalysis = {
  missingVariables: [],
  unusedVariables: [],
  missingPlaceholders: [],
  unknownPlaceholders: [],
  invalidPlaceholders: [],
  partials: [],
};

describe('analyzeCompile: variables', () => {
  it('is clean when every name is given and used', () => {
    const analysis = analyzeCompile(text('{{a}} {{#list}}{{.}}{{/list}}'), { a: 1, list: [1] });
    expect(analysis).toEqual(clean);
    expect(hasCompileProblems(analysis)).toBe(false);
  });

  it('reports names that are referenced but not given, including section names', () => {
    const analysis = analyzeCompile(text('{{a}} {{ b }} {{#c}}x{{/c}} {{^d}}y{{/d}}'), {});
    expect(analysis.missingVariables).toEqual(['a', 'b', 'c', 'd']);
    expect(hasCompileProblems(analysis)).toBe(true);
  });

  it('reports the missing root of a dotted name, or the full path when only the leaf is missing', () => {
    expect(analyzeCompile(text('{{a.b}}'), {}).missingVariables).toEqual(['a']);
    expect(analyzeCompile(text('{{a.b}} {{a.c.d}}'), { a: { b: 1, c: {} } }).missingVariables).toEqual(['a.c.d']);
    expect(analyzeCompile(text('{{a.b}}'), { a: { b: null } }).missingVariables).toEqual([]);
  });

  it('resolves names inside sections against the section value first, then outer contexts', () => {
    const content = text('{{#people}}{{name}} {{greeting}}{{/people}}');
    expect(analyzeCompile(content, { people: [{ name: 'A' }], greeting: 'hi' })).toEqual(clean);
    expect(analyzeCompile(content, { people: [{ name: 'A' }, {}], greeting: 'hi' }).missingVariables).toEqual(['name']);
    expect(analyzeCompile(content, { people: [{ name: 'A' }] }).missingVariables).toEqual(['greeting']);
  });

  it('reports what is inside a missing section, and skips the body of a section that is given but falsy', () => {
    expect(analyzeCompile(text('{{#s}}{{inner}}{{/s}}'), {}).missingVariables).toEqual(['s', 'inner']);
    expect(analyzeCompile(text('{{#s}}{{inner}}{{/s}}'), { s: false }).missingVariables).toEqual([]);
    expect(analyzeCompile(text('{{^s}}{{inner}}{{/s}}'), { s: true }).missingVariables).toEqual([]);
    expect(analyzeCompile(text('{{^s}}{{inner}}{{/s}}'), { s: [] }).missingVariables).toEqual(['inner']);
  });

  it('does not count Object.prototype members as given', () => {
    expect(analyzeCompile(text('{{constructor}} {{toString}}'), {}).missingVariables).toEqual(['constructor', 'toString']);
  });

  it('counts a variable that is 0, false, empty or null as given', () => {
    expect(analyzeCompile(text('{{a}}{{b}}{{c}}{{d}}'), { a: 0, b: false, c: '', d: null }).missingVariables).toEqual([]);
  });

  it('reports variables given but never referenced, even in sections that are not shown', () => {
    const analysis = analyzeCompile(text('{{#show}}{{inner}}{{/show}}'), { show: false, inner: 'x', extra: 1 });
    expect(analysis.unusedVariables).toEqual(['extra']);
  });

  it('lists partials, which compile always renders as nothing', () => {
    expect(analyzeCompile(text('{{> footer}} {{>header}}'), {}).partials).toEqual(['footer', 'header']);
  });
});

describe('analyzeCompile: chat placeholders', () => {
  const chat: PromptContent = {
    type: 'chat',
    prompt: [
      { role: 'system', content: 'You are {{persona}}' },
      { type: 'placeholder', name: 'history' },
      { type: 'placeholder', name: 'examples' },
      { role: '{{notRendered}}', content: 'q' },
    ],
  };

  it('reports placeholders left unfilled and placeholders the prompt does not have', () => {
    const analysis = analyzeCompile(chat, { persona: 'p' }, { history: [], other: [] });
    expect(analysis.missingPlaceholders).toEqual(['examples']);
    expect(analysis.unknownPlaceholders).toEqual(['other']);
    expect(analysis.invalidPlaceholders).toEqual([]);
  });

  it('reports placeholder values that would go in as JSON text', () => {
    const analysis = analyzeCompile(chat, { persona: 'p' }, { history: 'text', examples: [{ role: 'user' }] });
    expect(analysis.invalidPlaceholders).toEqual(['history', 'examples']);
  });

  it('checks the variables of spliced messages too, and never those of roles', () => {
    const analysis = analyzeCompile(
      chat,
      { persona: 'p', topic: 't', notRendered: 'r' },
      { history: [{ role: 'user', content: 'about {{topic}} and {{mood}}' }], examples: [] },
    );
    expect(analysis.missingVariables).toEqual(['mood']);
    expect(analysis.unusedVariables).toEqual(['notRendered']);
  });

  it('treats every placeholder given for a text prompt as unknown', () => {
    expect(analyzeCompile(text('x'), {}, { history: [] }).unknownPlaceholders).toEqual(['history']);
  });
});
