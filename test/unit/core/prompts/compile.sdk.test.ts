// Differential test: compile must give what the official SDK's prompt clients give.
import { ChatPromptClient, TextPromptClient } from '@langfuse/client';
import mustache from 'mustache';
import { afterEach, describe, expect, it } from 'vitest';
import { compileChat, compileText, type Placeholders, type Variables } from '../../../../src/core/prompts/index.js';
import type { ChatItem } from '../../../../src/core/prompts/index.js';

const base = { name: 'p', version: 1, config: {}, labels: [], tags: [] };
const sdkText = (prompt: string, variables: Variables) =>
  new TextPromptClient({ ...base, type: 'text', prompt }).compile(variables as Record<string, string>);
const sdkChat = (prompt: ChatItem[], variables: Variables, placeholders: Placeholders) =>
  new ChatPromptClient({ ...base, type: 'chat', prompt }).compile(variables as Record<string, string>, placeholders);

// The SDK sets the global `mustache.escape` to the identity when it loads. Ours must not depend
// on that global at all, so it is made to throw while our compile runs.
const sdkEscape = mustache.escape;
function withoutGlobalEscape<T>(run: () => T): T {
  mustache.escape = () => {
    throw new Error('the global mustache.escape was used');
  };
  try {
    return run();
  } finally {
    mustache.escape = sdkEscape;
  }
}
afterEach(() => {
  mustache.escape = sdkEscape;
});

const templates = [
  '',
  'no tags at all',
  'Hello {{name}}!',
  'Hello {{ name }}!',
  'Hello {{   name   }}!',
  '{{missing}}|{{ missing }}|{{{missing}}}',
  'raw {{{html}}} amp {{& html}} plain {{html}} spaced {{{ html }}} {{&html}}',
  '<b>&"\' stay as written, values too: {{html}}',
  '{{#items}}- {{.}}\n{{/items}}',
  'before\n  {{#items}}\n  * {{.}}\n  {{/items}}\nafter',
  '{{#user}}{{name}} ({{age}}) in {{address.city}}{{/user}}',
  '{{^items}}no items{{/items}}{{^missing}}missing is falsy{{/missing}}',
  '{{#flag}}on{{/flag}}{{^flag}}off{{/flag}}',
  '{{! a comment }}after comment{{!another}}',
  '{{user.name}} lives in {{user.address.city}}; {{user.nope.deeper}}',
  'zero={{zero}} count={{count}} negative={{negative}} float={{float}}',
  '{{#zero}}zero shown{{/zero}}{{^zero}}zero hidden{{/zero}}',
  'null=[{{nullValue}}] true=[{{flag}}] list=[{{items}}] obj=[{{user}}]',
  '{{#items}}{{name}}{{/items}}',
  '{{#people}}{{name}}: {{greeting}}; {{/people}}',
  '{{#nested}}{{#inner}}[{{value}}]{{/inner}}{{/nested}}',
  '{{name.length}} {{items.length}} {{items.0}}',
  '{{=<% %>=}}<% name %> and {{name}} <%={{ }}=%>{{name}}',
  'partial: [{{> partial}}]',
  '{{#name}}section on a string: {{.}}{{/name}}',
  '{{名前}} {{ café }}',
  '{{a-b}} {{a_b}} {{1x}}',
  '{{constructor}}|{{toString}}',
  '{{#emptyList}}never{{/emptyList}}{{^emptyList}}empty list{{/emptyList}}',
  'multi\nline\n{{name}}\n',
  '{{{json}}}',
];

const variableSets: Variables[] = [
  {},
  {
    name: 'Ada',
    html: '<b>Tom & "Jerry"</b> \'quoted\'',
    items: ['one', 'two'],
    user: { name: 'Lin', age: 0, address: { city: 'Oslo' } },
    people: [{ name: 'A', greeting: 'hi' }, { name: 'B' }],
    greeting: 'hello from the root',
    nested: { inner: [{ value: 1 }, { value: '<2>' }] },
    zero: 0,
    count: 3,
    negative: -1.5,
    float: 0.1,
    flag: true,
    nullValue: null,
    emptyList: [],
    json: '{"a": [1, 2]}',
    'a-b': 'dash',
    a_b: 'underscore',
    名前: 'たろう',
    café: 'au lait',
  },
  { name: '', items: [], user: null, flag: false, zero: '0', emptyList: [1], nested: [{ inner: true, value: 'v' }] },
  { name: 42, html: 7, items: [{ name: 'x' }, { name: 'y' }], user: 'a string', flag: 'yes', count: '3' },
  { name: '{{name}} is not re-rendered', html: '{{{html}}}', items: 'abc' },
];

describe('text compile matches TextPromptClient.compile()', () => {
  it.each(templates)('%j', (template) => {
    for (const variables of variableSets) {
      const expected = sdkText(template, variables);
      expect(withoutGlobalEscape(() => compileText(template, variables)), JSON.stringify(variables)).toBe(expected);
    }
  });

  it('treats no variables like an empty object', () => {
    expect(compileText('a{{b}}c')).toBe(new TextPromptClient({ ...base, type: 'text', prompt: 'a{{b}}c' }).compile());
  });
});

const chatPrompts: { title: string; prompt: ChatItem[] }[] = [
  {
    title: 'messages only',
    prompt: [
      { role: 'system', content: 'You are {{persona}}. <b>{{html}}</b>' },
      { role: 'user', content: '{{#items}}- {{.}}\n{{/items}}{{^items}}nothing{{/items}}' },
      { role: '{{role}}', content: 'roles are not rendered' },
    ],
  },
  {
    title: 'placeholder between messages',
    prompt: [
      { role: 'system', content: 'Hi {{ persona }}' },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: '{{question}}' },
    ],
  },
  {
    title: 'two placeholders, one used twice',
    prompt: [
      { type: 'placeholder', name: 'history' },
      { type: 'placeholder', name: 'examples' },
      { role: 'assistant', content: '{{user.name}}' },
      { type: 'placeholder', name: 'history' },
    ],
  },
  { title: 'no messages', prompt: [] },
];

const chatInputs: { title: string; variables: Variables; placeholders: Placeholders }[] = [
  { title: 'nothing given', variables: {}, placeholders: {} },
  {
    title: 'filled with messages that contain variables',
    variables: { persona: 'a <pirate>', question: 'Why & how?', html: '"q"', user: { name: 'Ann' } },
    placeholders: {
      history: [
        { role: 'user', content: 'Earlier I asked about {{question}}' },
        { role: 'assistant', content: 'As {{persona}}, {{missing}}answered.' },
      ],
      examples: [{ role: 'user', content: '{{#items}}{{.}}{{/items}}' }],
    },
  },
  {
    title: 'spliced messages keep extra fields and non-string content',
    variables: { persona: 'x' },
    placeholders: {
      history: [
        { role: 'assistant', content: '{{persona}}', tool_calls: [{ id: '1' }], name: 'bot' },
        { role: 'user', content: { text: '{{persona}}' } },
        { role: 'tool', content: 5 },
      ],
    },
  },
  { title: 'empty arrays drop placeholders', variables: { question: 'q' }, placeholders: { history: [], examples: [] } },
  {
    title: 'non-array values are pushed as JSON text',
    variables: { persona: 'p' },
    placeholders: { history: 'just a string', examples: { role: 'user', content: 'not in an array' } },
  },
  {
    title: 'numbers, booleans and null placeholder values',
    variables: {},
    placeholders: { history: 0, examples: false },
  },
  { title: 'null value', variables: {}, placeholders: { history: null } },
  {
    title: 'arrays that are not all messages',
    variables: { question: '{{persona}}' },
    placeholders: {
      history: ['a', 'b'],
      examples: [{ role: 'user', content: 'ok' }, { role: 'user' }],
    },
  },
  {
    title: 'one placeholder filled, the other absent',
    variables: { persona: 'p', question: 'q' },
    placeholders: { history: [{ role: 'user', content: 'hi {{persona}}' }], unrelated: [{ role: 'x', content: 'y' }] },
  },
  {
    title: 'placeholder explicitly undefined',
    variables: {},
    placeholders: { history: undefined },
  },
];

describe('chat compile matches ChatPromptClient.compile()', () => {
  for (const { title, prompt } of chatPrompts) {
    it.each(chatInputs.map((input) => [input.title, input] as const))(`${title}: %s`, (_, input) => {
      const expected = sdkChat(prompt, input.variables, input.placeholders);
      const actual = withoutGlobalEscape(() => compileChat(prompt, input.variables, input.placeholders));
      expect(actual).toStrictEqual(expected);
    });
  }

  it('treats no variables and no placeholders like empty objects', () => {
    const prompt: ChatItem[] = [
      { role: 'system', content: 'x{{y}}' },
      { type: 'placeholder', name: 'h' },
    ];
    expect(compileChat(prompt)).toStrictEqual(new ChatPromptClient({ ...base, type: 'chat', prompt }).compile());
  });
});

describe('deliberate differences from the SDK', () => {
  const prompt: ChatItem[] = [{ type: 'placeholder', name: 'history' }];

  it('a null element in a placeholder list: the SDK throws, we push the JSON text', () => {
    const placeholders = { history: [null, { role: 'user', content: 'x' }] };
    expect(() => sdkChat(prompt, {}, placeholders)).toThrow(TypeError);
    expect(compileChat(prompt, {}, placeholders)).toStrictEqual(['[null,{"role":"user","content":"x"}]']);
  });

  it('a placeholder named like an Object.prototype member stays unfilled instead of becoming undefined', () => {
    const inherited: ChatItem[] = [{ type: 'placeholder', name: 'constructor' }];
    expect(sdkChat(inherited, {}, {})).toStrictEqual([undefined]);
    expect(compileChat(inherited, {}, {})).toStrictEqual([{ type: 'placeholder', name: 'constructor' }]);
  });
});
