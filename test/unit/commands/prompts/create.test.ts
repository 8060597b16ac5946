// `llmobs prompts create` in-process against the local server: what is sent (checked against the
// contract), what is printed, exit codes, and that local mistakes send nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/cli.js';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';

let cli: LocalCli;
const dir = tempDir();
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

describe('prompts create', () => {
  it('sends the text, labels, tags, config and commit message, and prints the version and labels', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', 'Hi {{name}}', '-l', 'production', '--label', 'staging', '--tag', 'team', '--config', '{"model":"gpt-4o"}', '-m', 'first']);
    expect(result.exitCode).toBe(0);
    expect(result.sent).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/api/public/v2/prompts',
        body: { name: 'c/text', type: 'text', prompt: 'Hi {{name}}', labels: ['production', 'staging'], tags: ['team'], config: { model: 'gpt-4o' }, commitMessage: 'first' },
      }),
    ]);
    expect(result.stdout).toBe('Name\tc/text\nVersion\t1\nType\ttext\nLabels\tproduction, staging, latest\nTags\tteam\n');
    expect(result.stderr).toContain("Created version 1 of text prompt 'c/text'");
  });

  it('prints the API object with --json, keeping the tags when none are given', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', 'Hello {{name}}', '--json']);
    expect(result.sent[0]!.body).not.toHaveProperty('tags');
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'c/text', version: 2, type: 'text', labels: ['latest'], tags: ['team'], commitMessage: null });
  });

  it('sends tags: [] for --clear-tags', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', 'x', '--clear-tags']);
    expect(result.sent[0]!.body).toMatchObject({ tags: [] });
  });

  it('reads chat messages from YAML, with placeholders, and a config file', async () => {
    const chat = file('chat.yaml', '- role: system\n  content: You are {{persona}}\n- type: placeholder\n  name: history\n- role: user\n  content: "{{question}}"\n');
    const config = file('config.yaml', 'model: gpt-4o\ntemperature: 0\n');
    const result = await cli.run(['prompts', 'create', 'c/chat', '--chat-file', chat, '--config-file', config]);
    expect(result.exitCode).toBe(0);
    expect(result.sent[0]!.body).toEqual({
      name: 'c/chat',
      type: 'chat',
      prompt: [{ role: 'system', content: 'You are {{persona}}' }, { type: 'placeholder', name: 'history' }, { role: 'user', content: '{{question}}' }],
      labels: [],
      config: { model: 'gpt-4o', temperature: 0 },
    });
  });

  it('infers the type of content on stdin and drops one final line break of text', async () => {
    const chat = await cli.run(['prompts', 'create', 'c/stdin-chat'], { stdin: '[{"role":"user","content":"hi"}]\n' });
    expect(chat.sent[0]!.body).toMatchObject({ type: 'chat', prompt: [{ role: 'user', content: 'hi' }] });
    const text = await cli.run(['prompts', 'create', 'c/stdin-text'], { stdin: 'line one\nline two\n\n' });
    expect(text.sent[0]!.body).toMatchObject({ type: 'text', prompt: 'line one\nline two\n' });
  });

  it('makes --file a text prompt and warns when it looks like chat', async () => {
    const looksChat = file('looks-chat.json', '[{"role":"user","content":"hi"}]\n');
    const result = await cli.run(['prompts', 'create', 'c/file', '--file', looksChat]);
    expect(result.sent[0]!.body).toMatchObject({ type: 'text', prompt: '[{"role":"user","content":"hi"}]' });
    expect(result.stderr).toMatch(/looks like chat messages.*--chat-file/);
  });

  it('prints the body and sends nothing with --dry-run', async () => {
    const result = await cli.run(['prompts', 'create', 'c/dry', '--text', 'x', '--label', 'production', '--dry-run']);
    expect(result.exitCode).toBe(0);
    expect(result.sent).toEqual([]);
    expect(JSON.parse(result.stdout)).toEqual({ name: 'c/dry', type: 'text', prompt: 'x', labels: ['production'], config: {} });
  });

  it.each([
    ['a name with //', ['a//b', '--text', 'x'], /must not contain '\/\/'/],
    ['a reserved name', ['new', '--text', 'x'], /reserved/],
    ['an uppercase label', ['p', '--text', 'x', '--label', 'Prod'], /lowercase letters/],
    ['latest as a label', ['p', '--text', 'x', '--label', 'latest'], /'latest' cannot be set by hand/],
    ['a 37-character label', ['p', '--text', 'x', '--label', 'l'.repeat(37)], /1 to 36 characters/],
    ['two content sources', ['p', '--text', 'x', '--file', 'f.txt'], /--text, --file were given together/],
    ['a 501-character commit message', ['p', '--text', 'x', '-m', 'm'.repeat(501)], /limit is 500/],
    ['a variable named like a placeholder', ['p', '--text', '[{"role":"user","content":"{{h}}"},{"type":"placeholder","name":"h"}]', '--type', 'chat'], /variables and placeholders must be unique, the following are not: h/],
    ['--chat-file with --type text', ['p', '--chat-file', 'x.json', '--type', 'text'], /--chat-file makes a chat prompt/],
    ['bad --config JSON', ['p', '--text', 'x', '--config', '{model'], /--config is not valid JSON/],
    ['--tag with --clear-tags', ['p', '--text', 'x', '--tag', 'a', '--clear-tags'], /--tag or --clear-tags/],
    ['an unknown --type', ['p', '--text', 'x', '--type', 'html'], /Allowed choices are text, chat/],
  ] as const)('refuses %s locally with exit 2 and sends nothing', async (_, args, message) => {
    const result = await cli.run(['prompts', 'create', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.sent).toEqual([]);
  });

  it('refuses empty stdin (2) and a missing file (6) before sending', async () => {
    const empty = await cli.run(['prompts', 'create', 'p'], { stdin: '  \n' });
    expect([empty.exitCode, empty.sent]).toEqual([2, []]);
    expect(empty.stderr).toContain('stdin was empty');
    const missing = await cli.run(['prompts', 'create', 'p', '--chat-file', join(dir, 'nope.yaml')]);
    expect([missing.exitCode, missing.sent]).toEqual([6, []]);
  });

  it('explains the server refusing a change of type (exit 5)', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', '[{"role":"user","content":"x"}]', '--type', 'chat']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Previous versions have different prompt type');
    expect(result.stderr).toContain("Every version of 'c/text' has the same type");
  });
});
