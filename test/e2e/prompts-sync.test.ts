// prompts pull, status and push against the local server, in-process with every request recorded:
// pull then push sends nothing, an edit creates exactly one version, labels move without new
// versions, references stay raw and go children first, and broken files stop everything.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../helpers/cli.js';
import { type LocalCli, localCli } from '../helpers/local-cli.js';

let cli: LocalCli;
let cwd: string;
beforeEach(async () => {
  cli = await localCli();
  cwd = tempDir();
});
afterEach(async () => {
  await cli.close();
});

const run = (argv: string[]) => cli.run(argv, { cwd });
const writes = <T extends { method: string }>(sent: T[]): T[] => sent.filter((r) => r.method !== 'GET');
const read = (path: string) => readFileSync(join(cwd, path), 'utf8');
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(cwd, path)), { recursive: true });
  writeFileSync(join(cwd, path), text);
};
const api = async (path: string) => {
  const response = await fetch(`${cli.server.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${cli.server.keys.publicKey}:${cli.server.keys.secretKey}`).toString('base64')}` } });
  return response.json() as Promise<any>;
};

async function seedSome() {
  await cli.seed({ name: 'support/greeting', prompt: 'Hello {{name}},\n\n  indented line  \nlast line\n\n', labels: ['production'], tags: ['support'], config: { model: 'gpt-4o', temperature: 0.2 } });
  await cli.seed({
    name: 'support/agent',
    type: 'chat',
    prompt: [
      { role: 'system', content: 'You are helpful.\n@@@langfusePrompt:name=support/greeting|label=production@@@' },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: '{{question}}' },
    ],
    labels: ['production'],
  });
  await cli.seed({ name: 'plain', prompt: 'no config, no tags' });
}

describe('prompts pull', () => {
  it('writes one file per prompt named by its path, text as Markdown and chat as YAML, references raw', async () => {
    await seedSome();
    const pulled = await run(['prompts', 'pull']);
    expect(pulled.exitCode).toBe(0);
    expect(writes(pulled.sent)).toEqual([]);
    expect(read('prompts/support/greeting.md')).toBe('---\nconfig:\n  model: gpt-4o\n  temperature: 0.2\ntags:\n  - support\n---\nHello {{name}},\n\n  indented line  \nlast line\n\n\n');
    expect(read('prompts/plain.md')).toBe('no config, no tags\n');
    expect(read('prompts/support/agent.yaml')).toBe(
      'type: chat\nmessages:\n  - role: system\n    content: |-\n      You are helpful.\n      @@@langfusePrompt:name=support/greeting|label=production@@@\n  - placeholder: history\n  - role: user\n    content: "{{question}}"\n',
    );
    // One list page and one read per prompt, always unresolved.
    expect(pulled.sent.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/public/v2/prompts?page=1&limit=100', '/api/public/v2/prompts/support%2Fagent?version=1&resolve=false']),
    );
    expect(pulled.sent).toHaveLength(4);
  });

  it('pull then push sends nothing, and status --exit-code says in sync', async () => {
    await seedSome();
    await run(['prompts', 'pull']);
    const status = await run(['prompts', 'status', '--exit-code']);
    expect(status.exitCode).toBe(0);
    expect(status.stderr).toContain('In sync: 3 unchanged');
    const pushed = await run(['prompts', 'push']);
    expect(pushed.exitCode).toBe(0);
    expect(writes(pushed.sent)).toEqual([]);
  });

  it('pulls the version under a label, and only prompts that have it', async () => {
    await seedSome();
    await cli.seed({ name: 'support/greeting', prompt: 'draft' });
    const pulled = await run(['prompts', 'pull', '--label', 'production']);
    expect(pulled.exitCode).toBe(0);
    expect(read('prompts/support/greeting.md')).toContain('Hello {{name}}');
    expect(existsSync(join(cwd, 'prompts/plain.md'))).toBe(false);
    // Compared with the label it was pulled by, it is in sync; with the latest it is not.
    expect((await run(['prompts', 'status', '--label', 'production', '--exit-code'])).exitCode).toBe(0);
    const latest = await run(['prompts', 'status', '--exit-code']);
    expect(latest.exitCode).toBe(9);
    expect(latest.stdout).toContain('-draft');
  });

  it('does not overwrite a local file that differs without --force (exit 9), and leaves equal ones alone', async () => {
    await seedSome();
    await run(['prompts', 'pull']);
    write('prompts/plain.md', 'my local edit\n');
    // Same content, other YAML spelling: equal, so kept as the user wrote it.
    write('prompts/support/agent.yaml', 'type: chat\nmessages:\n  - {role: system, content: "You are helpful.\\n@@@langfusePrompt:name=support/greeting|label=production@@@"}\n  - {placeholder: history}\n  - {role: user, content: "{{question}}"}\n');
    const kept = await run(['prompts', 'pull']);
    expect(kept.exitCode).toBe(9);
    expect(kept.stdout).toMatch(/plain\t1\tprompts\/plain.md\tkept: differs/);
    expect(kept.stdout).toMatch(/support\/agent\t1\tprompts\/support\/agent.yaml\tunchanged/);
    expect(read('prompts/plain.md')).toBe('my local edit\n');
    const forced = await run(['prompts', 'pull', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(read('prompts/plain.md')).toBe('no config, no tags\n');
    expect(read('prompts/support/agent.yaml')).toContain('{role: system');
  });

  it('--force overwrites the content but keeps the labels the file wants', async () => {
    await seedSome();
    write('prompts/plain.md', '---\nlabels:\n  - staging\n---\nmy local edit\n');
    const forced = await run(['prompts', 'pull', 'plain', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(read('prompts/plain.md')).toBe('---\nlabels:\n  - staging\n---\nno config, no tags\n');
  });

  it('sets aside prompts whose names differ only in case or Unicode form (one file on macOS and Windows), and exits 9', async () => {
    await cli.seed({ name: 'Greeting', prompt: 'upper' });
    await cli.seed({ name: 'greeting', prompt: 'lower' });
    await cli.seed({ name: 'caf\u00e9', prompt: 'composed' });
    await cli.seed({ name: 'cafe\u0301', prompt: 'decomposed' });
    await cli.seed({ name: 'other', prompt: 'fine' });
    write('prompts/Local.md', 'a new prompt not pushed yet\n');
    await cli.seed({ name: 'local', prompt: 'on the server' });
    const pulled = await run(['prompts', 'pull']);
    expect(pulled.exitCode).toBe(9);
    expect(read('prompts/other.md')).toBe('fine\n');
    for (const name of ['Greeting', 'greeting', 'caf\u00e9', 'cafe\u0301', 'local']) {
      expect(existsSync(join(cwd, `prompts/${name}.md`)), name).toBe(false);
      expect(pulled.stdout).toContain(`${name}\t1\t\tset aside (differs from`);
      expect(pulled.stderr).toContain(`  '${name}': differs from`);
    }
    expect(read('prompts/Local.md')).toBe('a new prompt not pushed yet\n');
    expect(pulled.stderr).toContain('warning: 5 prompts were set aside, not written: their names cannot be files in prompts:');
  });

  it("sets aside names that cannot be files ('..', '../x', a backslash, a folder linked out of the directory), writes the rest, and exits 9", async () => {
    for (const name of ['..', '../escape', 'a\\..\\..\\evil', 'linked/x', 'fine/one']) await cli.seed({ name, prompt: `text of ${name}` });
    const outside = tempDir();
    mkdirSync(join(cwd, 'prompts'));
    symlinkSync(outside, join(cwd, 'prompts', 'linked'));
    const pulled = await run(['prompts', 'pull', '--json']);
    expect(pulled.exitCode, pulled.stderr).toBe(9);
    expect(read('prompts/fine/one.md')).toBe('text of fine/one\n');
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(dirname(cwd)).filter((name) => name === 'escape.md')).toEqual([]);
    const rows = JSON.parse(pulled.stdout).prompts as Array<{ name: string; outcome: string; reason?: string }>;
    expect(Object.fromEntries(rows.map((row) => [row.name, row.outcome]))).toEqual({ '..': 'set aside', '../escape': 'set aside', 'a\\..\\..\\evil': 'set aside', 'linked/x': 'set aside', 'fine/one': 'written' });
    expect(pulled.stderr).toContain('warning: 4 prompts were set aside, not written: their names cannot be files in prompts:');
    expect(pulled.stderr).toContain("  '..': a prompt named '..' cannot be read through the API");
    expect(pulled.stderr).toContain("  '../escape': the name '../escape' has a folder '..'");
    expect(pulled.stderr).toContain('has a backslash, a folder separator on Windows');
    expect(pulled.stderr).toMatch(/ {2}'linked\/x': cannot write .* is a symbolic link to /);
    // '..' cannot be asked for in a URL: it is set aside unread.
    expect(pulled.sent.map((r) => r.path).filter((path) => path.startsWith('/api/public/v2/prompts/..'))).toEqual([]);
  });

  it('reports a named prompt that does not exist (exit 8) after writing the others', async () => {
    await seedSome();
    const pulled = await run(['prompts', 'pull', 'plain', 'ghost']);
    expect(pulled.exitCode).toBe(8);
    expect(pulled.stderr).toContain('ghost');
    expect(read('prompts/plain.md')).toBe('no config, no tags\n');
  });
});

describe('prompts status', () => {
  it('ends with the push command for exactly what it compared: names, directory and labels, quoted for a shell', async () => {
    write('my prompts/team a/it\'s new.md', 'hello\n');
    write('my prompts/other.md', 'other\n');
    const status = await run(['prompts', 'status', "team a/it's new", '--dir', 'my prompts', '--label', 'staging']);
    expect(status.exitCode).toBe(0);
    expect(status.stderr).toContain("Push with: llmobs prompts push 'team a/it'\\''s new' --dir 'my prompts' --label staging");
  });

  it('suggests push only when push would go through: not while a file is broken', async () => {
    write('prompts/new-one.md', 'a new prompt\n');
    write('prompts/broken.yaml', 'messages:\n  - content: no role\n');
    const status = await run(['prompts', 'status']);
    expect(status.exitCode).toBe(2);
    expect(status.stderr).not.toContain('Push with');
    expect(status.stderr).toContain('Not in sync: 0 unchanged, 1 to push, 1 file with problems (below). Fix it first: push sends nothing while any file has a problem.');
    expect(status.stderr).toContain('prompts/broken.yaml');
    const push = await run(['prompts', 'push']);
    expect(push.exitCode).toBe(2);

    rmSync(join(cwd, 'prompts/broken.yaml'));
    const fixed = await run(['prompts', 'status']);
    expect(fixed.exitCode).toBe(0);
    expect(fixed.stderr).toContain('Not in sync: 0 unchanged, 1 to push. Push with: llmobs prompts push');
  });
});

describe('prompts as code from an empty project', () => {
  it('pull creates the directory and says so; status is in sync and push has nothing to send; a first file then goes up', async () => {
    const pulled = await run(['prompts', 'pull']);
    expect(pulled.exitCode, pulled.stderr).toBe(0);
    expect(pulled.stderr).toContain('Created prompts.\nPulled 0 prompts into prompts: 0 written, 0 overwritten, 0 unchanged.');
    expect(existsSync(join(cwd, 'prompts'))).toBe(true);
    const status = await run(['prompts', 'status', '--exit-code']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stderr).toContain('In sync: 0 unchanged, 0 to push.');
    const push = await run(['prompts', 'push']);
    expect(push.exitCode, push.stderr).toBe(0);
    expect(push.stderr).toContain('Nothing to push: 0 prompts unchanged.');
    expect(writes(push.sent)).toEqual([]);

    write('prompts/greeting.md', 'Hello {{name}}\n');
    expect((await run(['prompts', 'push', '--label', 'staging'])).exitCode).toBe(0);
    expect(await api('/api/public/v2/prompts/greeting?label=staging')).toMatchObject({ prompt: 'Hello {{name}}', version: 1 });
    const again = await run(['prompts', 'pull']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).not.toContain('Created');
  });
});

describe('prompts push', () => {
  it('an edited file creates exactly one version with the exact text, config and labels; a second push sends nothing', async () => {
    await seedSome();
    await run(['prompts', 'pull']);
    write('prompts/support/greeting.md', read('prompts/support/greeting.md').replace('Hello', 'Hi').replace('temperature: 0.2', 'temperature: 0'));
    const status = await run(['prompts', 'status', '--exit-code']);
    expect(status.exitCode).toBe(9);
    expect(status.stdout).toContain('changed\tsupport/greeting\tnew version after v1');
    expect(status.stdout).toContain('-Hello {{name}},');
    expect(status.stdout).toContain('+Hi {{name}},');
    expect(status.stdout).toContain('-  "temperature": 0.2');

    const pushed = await run(['prompts', 'push', '--label', 'staging', '-m', 'friendlier']);
    expect(pushed.exitCode).toBe(0);
    // The other two equal their latest versions: staging moves there without a new version.
    expect(writes(pushed.sent)).toEqual([
      expect.objectContaining({ method: 'PATCH', path: '/api/public/v2/prompts/plain/versions/1', body: { newLabels: ['staging'] } }),
      expect.objectContaining({ method: 'PATCH', path: '/api/public/v2/prompts/support%2Fagent/versions/1', body: { newLabels: ['staging'] } }),
      expect.objectContaining({
        method: 'POST',
        path: '/api/public/v2/prompts',
        body: {
          name: 'support/greeting',
          type: 'text',
          prompt: 'Hi {{name}},\n\n  indented line  \nlast line\n\n',
          labels: ['staging'],
          tags: ['support'],
          config: { model: 'gpt-4o', temperature: 0 },
          commitMessage: 'friendlier',
        },
      }),
    ]);
    const again = await run(['prompts', 'push', '--label', 'staging', '-m', 'friendlier']);
    expect(writes(again.sent)).toEqual([]);
    expect(again.stderr).toContain('Nothing to push');
    expect((await api('/api/public/v2/prompts?name=support%2Fgreeting')).data[0].versions).toEqual([1, 2]);
  });

  it('shows a chat prompt\'s change message by message, and its config change', async () => {
    await seedSome();
    await run(['prompts', 'pull']);
    write('prompts/support/agent.yaml', read('prompts/support/agent.yaml').replace('You are helpful.', 'You are very helpful.').replace('type: chat\n', 'type: chat\nconfig:\n  model: gpt-4o-mini\n'));
    const status = await run(['prompts', 'status']);
    expect(status.stdout).toContain('--- [0] system\n-You are helpful.\n+You are very helpful.');
    expect(status.stdout).toContain('+  "model": "gpt-4o-mini"');
    const json = JSON.parse((await run(['prompts', 'status', '--json'])).stdout);
    expect(json.prompts.find((p: { name: string }) => p.name === 'support/agent')).toMatchObject({ status: 'changed', latestVersion: 1, diff: { content: expect.stringContaining('+You are very helpful.') } });
  });

  it('creates a prompt for a new file, named by its path', async () => {
    write('prompts/team/app/summary.md', 'Summarise {{text}}\n');
    const pushed = await run(['prompts', 'push']);
    expect(pushed.exitCode).toBe(0);
    expect(writes(pushed.sent).map((r) => r.body)).toEqual([{ name: 'team/app/summary', type: 'text', prompt: 'Summarise {{text}}', labels: [], config: {} }]);
    expect(pushed.stdout).toContain('team/app/summary\tcreated\t1');
  });

  it('creates referenced prompts first and keeps the references raw', async () => {
    write('prompts/a-parent.yaml', 'messages:\n  - role: system\n    content: "@@@langfusePrompt:name=z-child|label=production@@@"\n');
    write('prompts/z-child.md', '---\nlabels: [production]\n---\nBe kind.\n');
    const pushed = await run(['prompts', 'push']);
    expect(pushed.exitCode).toBe(0);
    expect(writes(pushed.sent).map((r) => (r.body as { name: string }).name)).toEqual(['z-child', 'a-parent']);
    const parent = await api('/api/public/v2/prompts/a-parent?label=latest&resolve=false');
    expect(parent.prompt[0].content).toBe('@@@langfusePrompt:name=z-child|label=production@@@');
  });

  it('--dry-run prints the plan and sends no write', async () => {
    write('prompts/x.md', 'x');
    const dry = await run(['prompts', 'push', '--dry-run', '--label', 'staging']);
    expect(dry.exitCode).toBe(0);
    expect(writes(dry.sent)).toEqual([]);
    expect(dry.stdout).toContain('new\tx\tnew prompt; staging → v1');
    expect(dry.stderr).toContain('nothing was sent');
  });

  it('reports every broken file and every refused one at once, exit 2, no write', async () => {
    await cli.seed({ name: 'chatty', type: 'chat', prompt: [{ role: 'user', content: 'hi' }] });
    write('prompts/chatty.md', 'now text');
    write('prompts/ok.md', 'fine');
    write('prompts/bad-yaml.yaml', 'messages: [\n');
    write('prompts/no-role.yaml', 'messages:\n  - content: hi\n');
    write('prompts/unknown.md', '---\nmodel: gpt-4o\n---\nx');
    write('prompts/label.md', '---\nlabels: [Production]\n---\nx');
    write('prompts/twice.md', 'a');
    write('prompts/twice.yaml', 'text: a');
    const pushed = await run(['prompts', 'push']);
    expect(pushed.exitCode).toBe(2);
    expect(writes(pushed.sent)).toEqual([]);
    for (const text of ["'chatty' is a chat prompt on the server", 'bad-yaml.yaml', 'no-role.yaml: messages[0]: the message has no role', 'unknown key "model"', 'Invalid label "Production"', "give the prompt 'twice'"]) {
      expect(pushed.stderr).toContain(text);
    }
    expect(pushed.stderr).toContain('7 prompt files have problems; nothing was sent');
  });

  it('refuses a reference to a prompt neither on the server nor in the directory before sending anything', async () => {
    write('prompts/a.md', 'x @@@langfusePrompt:name=ghost|label=production@@@');
    write('prompts/b.md', 'fine');
    const pushed = await run(['prompts', 'push']);
    expect(pushed.exitCode).toBe(2);
    expect(writes(pushed.sent)).toEqual([]);
    expect(pushed.stderr).toContain("no prompt 'ghost' exists on the server or in the directory");
  });

  it('refuses a type change of an existing prompt', async () => {
    await seedSome();
    write('prompts/plain.yaml', 'messages:\n  - {role: user, content: hi}\n');
    const pushed = await run(['prompts', 'push']);
    expect(pushed.exitCode).toBe(2);
    expect(writes(pushed.sent)).toEqual([]);
    expect(pushed.stderr).toContain("'plain' is a text prompt on the server");
  });

  it('pushes only the named prompts, and never sets latest', async () => {
    write('prompts/a.md', 'a');
    write('prompts/b.md', 'b');
    const named = await run(['prompts', 'push', 'a']);
    expect(writes(named.sent).map((r) => (r.body as { name: string }).name)).toEqual(['a']);
    const latest = await run(['prompts', 'push', '--label', 'latest']);
    expect(latest.exitCode).toBe(2);
    expect(writes(latest.sent)).toEqual([]);
  });

  it('a tag change in a file gives one version with the same content; then nothing', async () => {
    await seedSome();
    await run(['prompts', 'pull']);
    write('prompts/support/greeting.md', read('prompts/support/greeting.md').replace('  - support', '  - support\n  - faq'));
    const pushed = await run(['prompts', 'push']);
    expect(writes(pushed.sent).map((r) => r.body)).toEqual([expect.objectContaining({ name: 'support/greeting', tags: ['support', 'faq'] })]);
    expect(writes((await run(['prompts', 'push'])).sent)).toEqual([]);
  });

  it('lists prompts that have no file', async () => {
    await seedSome();
    await run(['prompts', 'pull']);
    rmSync(join(cwd, 'prompts/plain.md'));
    const status = await run(['prompts', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ inSync: true, serverOnly: ['plain'] });
  });

  it('reports broken files even when the server cannot be reached', async () => {
    write('prompts/bad.yaml', 'messages: [\n');
    const env = isolatedEnv({ LANGFUSE_HOST: 'http://127.0.0.1:1', LANGFUSE_PUBLIC_KEY: 'pk-lf-x', LANGFUSE_SECRET_KEY: 'sk-lf-x', LLMOBS_RETRY_BASE_MS: '1' });
    const result = await runInProcess(['prompts', 'push', '--retries', '0'], { env, cwd });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('bad.yaml');
  });

  it('exits 2 when the directory does not exist', async () => {
    const status = await run(['prompts', 'status', '--dir', 'nowhere']);
    expect(status.exitCode).toBe(2);
    expect(status.stderr).toContain('does not exist');
    expect(status.sent).toEqual([]);
  });
});
