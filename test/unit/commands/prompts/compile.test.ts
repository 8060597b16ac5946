// `prompts compile` in-process against the local server.
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
  await cli.seed({ name: 'k/text', prompt: 'Dear {{name}}, {{#items}}[{{.}}]{{/items}} <{{tone}}>', labels: ['production'] });
  await cli.seed({
    name: 'k/chat',
    type: 'chat',
    prompt: [{ role: 'system', content: 'You are {{persona}}' }, { type: 'placeholder', name: 'history' }, { type: 'placeholder', name: 'extra' }, { role: 'user', content: '{{question}}' }],
    labels: ['production'],
  });
});
afterAll(() => cli.close());

describe('prompts compile', () => {
  it('renders mustache without HTML escaping; --var wins over --vars-file', async () => {
    const vars = file('vars.yaml', 'name: File\nitems: [a, b]\ntone: "<b>&</b>"\n');
    const result = await cli.run(['prompts', 'compile', 'k/text', '--vars-file', vars, '--var', 'name=Ada']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('Dear Ada, [a][b] <<b>&</b>>');
    expect(result.stderr).toBe('');
  });

  it('renders a missing variable as nothing and warns about it', async () => {
    const result = await cli.run(['prompts', 'compile', 'k/text', '--var', 'name=Ada', '--var', 'unused=1']);
    expect(result.stdout).toBe('Dear Ada,  <>');
    expect(result.stderr).toContain('variables not given (they render as nothing): items, tone');
    expect(result.stderr).toContain('variables given but not used: unused');
  });

  it('fails with --strict (exit 2), listing missing and unused variables, after one GET', async () => {
    const result = await cli.run(['prompts', 'compile', 'k/text', '--var', 'name=Ada', '--var', 'unused=1', '--strict', '--json']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr);
    expect(error.message).toContain("--strict: 'k/text' version 1 does not compile cleanly");
    expect(error.details).toMatchObject({ missingVariables: ['items', 'tone'], unusedVariables: ['unused'] });
    expect(result.sent.map((r) => r.method)).toEqual(['GET']);
  });

  it('fills placeholders from files, drops one given [] and keeps one not given', async () => {
    const history = file('history.json', JSON.stringify([{ role: 'user', content: 'I am {{persona}}' }, { role: 'assistant', content: 'Hello' }]));
    const result = await cli.run(['prompts', 'compile', 'k/chat', '--label', 'production', '--var', 'persona=Ada', '--var', 'question=Why?', '--placeholder', `history=@${history}`, '--placeholder', 'extra=[]']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { role: 'system', content: 'You are Ada' },
      { role: 'user', content: 'I am Ada' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Why?' },
    ]);
    const unfilled = await cli.run(['prompts', 'compile', 'k/chat', '--var', 'persona=Ada', '--var', 'question=Q', '--placeholder', 'extra=[]', '--json']);
    const parsed = JSON.parse(unfilled.stdout);
    expect(parsed.compiled[1]).toEqual({ type: 'placeholder', name: 'history' });
    expect(parsed.analysis.missingPlaceholders).toEqual(['history']);
    expect(unfilled.stderr).toContain('placeholders not given (they stay in the output): history');
  });

  it('reads placeholder messages from stdin and refuses reading stdin twice', async () => {
    const result = await cli.run(['prompts', 'compile', 'k/chat', '--placeholder', 'history=@-', '--placeholder', 'extra=[]', '--var', 'persona=A', '--var', 'question=Q'], {
      stdin: '- role: user\n  content: from stdin\n',
    });
    expect(JSON.parse(result.stdout)[1]).toEqual({ role: 'user', content: 'from stdin' });
    const twice = await cli.run(['prompts', 'compile', 'k/chat', '--placeholder', 'history=@-', '--vars-file', '-']);
    expect([twice.exitCode, twice.sent]).toEqual([2, []]);
  });

  it.each([
    ['a --var without =', ['--var', 'name'], /--var expects key=value/],
    ['a vars file that is a list', ['--vars-file', 'LIST'], /must hold an object/],
    ['bad inline placeholder JSON', ['--placeholder', 'history=[{'], /--placeholder history is not valid JSON/],
    ['a placeholder given twice', ['--placeholder', 'history=[]', '--placeholder', 'history=[]'], /given twice/],
  ] as const)('refuses %s with exit 2 and sends nothing', async (_, args, message) => {
    const list = file('list.json', '[1, 2]');
    const result = await cli.run(['prompts', 'compile', 'k/chat', ...args.map((arg) => (arg === 'LIST' ? list : arg))]);
    expect([result.exitCode, result.sent]).toEqual([2, []]);
    expect(result.stderr).toMatch(message);
  });
});
