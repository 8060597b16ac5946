// Runs without the SDK loaded, so the global mustache settings are the library defaults here.
import mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { PromptTemplateError, compileChat, compilePrompt, compileText } from '../../../../src/core/prompts/index.js';

describe('compile leaves the shared mustache module alone', () => {
  it('does not HTML-escape values, and the global escaper still does afterwards', () => {
    const escape = mustache.escape;
    const tags = [...mustache.tags];
    expect(compileText('{{v}} {{{v}}}', { v: '<a href="x">&</a>' })).toBe('<a href="x">&</a> <a href="x">&</a>');
    expect(mustache.escape).toBe(escape);
    expect(mustache.tags).toEqual(tags);
    expect(mustache.render('{{v}}', { v: '<&>' })).toBe('&lt;&amp;&gt;');
  });

  it('uses {{ }} even if someone changed the global delimiters', () => {
    const tags = mustache.tags;
    mustache.tags = ['<%', '%>'];
    try {
      expect(compileText('{{a}} <%a%>', { a: 'x' })).toBe('x <%a%>');
    } finally {
      mustache.tags = tags;
    }
  });
});

describe('compilePrompt', () => {
  it('dispatches on the content type', () => {
    expect(compilePrompt({ type: 'text', prompt: 'Hi {{n}}' }, { n: 'A' })).toBe('Hi A');
    expect(
      compilePrompt(
        { type: 'chat', prompt: [{ role: 'user', content: 'Hi {{n}}' }, { type: 'placeholder', name: 'h' }] },
        { n: 'A' },
        { h: [] },
      ),
    ).toStrictEqual([{ role: 'user', content: 'Hi A' }]);
  });
});

describe('template syntax errors', () => {
  it('names the template and mustache’s reason', () => {
    expect(() => compileText('Hi {{name')).toThrow(PromptTemplateError);
    expect(() => compileText('{{#a}}x')).toThrow(/Unclosed section "a"/);
  });

  it('names the chat message it came from, in the prompt or in a placeholder', () => {
    expect(() => compileChat([{ role: 'user', content: 'ok' }, { role: 'user', content: '{{/x}}' }])).toThrow(
      /^Chat message \[1\] is not valid mustache: Unopened section "x"/,
    );
    expect(() =>
      compileChat([{ type: 'placeholder', name: 'h' }], {}, { h: [{ role: 'u', content: 'ok' }, { role: 'u', content: '{{x' }] }),
    ).toThrow(/^Message \[1\] of placeholder "h" is not valid mustache/);
  });
});
