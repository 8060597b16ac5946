// Every shell example of the README runs as written: the built binary as `llmobs` on the PATH,
// bash, a clean HOME, local servers with data in them, and the files an example names (prompt.txt,
// new-prices.yaml ...) made first, as a reader would have them. The tour and the prompts examples
// have their own tests; examples that cannot run here (Langfuse Cloud, the build itself) are listed
// below with the reason. A test checks that every block is in that list, so a new example is run
// or deliberately left out.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { BIN } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

interface Block {
  section: string;
  text: string;
}

/** Every ```sh block of a Markdown text, with the `## ` heading it is under. */
export function shBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let section = '';
  for (const part of markdown.split(/^(```[a-z]*\n[\s\S]*?^```$)/m)) {
    if (part.startsWith('```')) {
      if (part.startsWith('```sh\n')) blocks.push({ section, text: part.slice(6, -3) });
      continue;
    }
    const headings = [...part.matchAll(/^## (.+)$/gm)];
    if (headings.length) section = headings.at(-1)![1]!;
  }
  return blocks;
}

/** How each block is covered, by its section and the start of its first line ('' matches any). */
const COVERAGE: Array<{ section: string; first: string; run: string }> = [
  { section: 'Quick start', first: 'npm install && npm run build', run: 'not run: it installs and builds this checkout and runs the whole suite, which CI does (npm ci, npm test)' },
  { section: 'A ten-minute tour', first: '', run: 'test/e2e/readme-tour.test.ts' },
  { section: 'Connect to Langfuse Cloud or your own server', first: '# Langfuse Cloud, US region', run: 'not run: Langfuse Cloud and langfuse.example.com with real keys; profile add and doctor against a server are run by test/e2e/foundation.test.ts' },
  { section: 'Prompts in git, and promotion in CI', first: 'llmobs prompts pull ', run: 'test/e2e/readme-prompts-in-git.test.ts (from an empty project, and from one with prompts)' },
  { section: 'Prompts in git, and promotion in CI', first: 'llmobs prompts status --label staging --exit-code', run: 'here' },
  { section: 'Gate CI on spend', first: '', run: 'here' },
  { section: 'Count tokens and estimate costs', first: '', run: 'here' },
  { section: 'Read traces and export observations', first: '', run: 'here' },
  { section: 'Export to blob storage', first: '', run: 'here' },
  { section: 'Record traces locally', first: 'llmobs server --port 3000', run: 'here, with --port 0: a test cannot count on port 3000 being free' },
  { section: 'Record traces locally', first: 'export LANGFUSE_BASE_URL=', run: 'here, with the address and keys the server printed in place of the placeholders' },
  { section: 'Record traces locally', first: 'llmobs traces list', run: 'here' },
  { section: 'See your traces', first: 'llmobs server link', run: 'test/e2e/ui-link.test.ts (with the profile the server saved; the link opened in a second chromium context)' },
  { section: 'See your traces', first: 'llmobs server\n', run: 'test/e2e/ui-foundation.test.ts (its start lines, with --port 0 --ephemeral; the printed address opened in chromium)' },
  { section: 'In scripts and CI', first: '', run: 'here' },
  { section: 'Shell completion', first: '', run: 'here' },
  { section: 'Development', first: 'npm test', run: 'not run: the suite itself and its variants, which CI runs (test:nodes needs Node 22, 24 and 26 installed)' },
];

const coverageOf = (block: Block) => COVERAGE.find((entry) => entry.section === block.section && block.text.startsWith(entry.first));

/** The block of `section` that starts with `first`, as the README has it. */
function example(section: string, first: string): string {
  const block = shBlocks(README).find((b) => b.section === section && b.text.startsWith(first));
  if (!block) throw new Error(`README: no sh block starting "${first}" under "## ${section}"`);
  return block.text;
}

let server: RunningServer;
let proxy: FaultProxy;
let failPages = false;
let root: string;
let env: Record<string, string>;
const spawned: ResultPromise[] = [];

async function post(target: RunningServer, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${target.keys.publicKey}:${target.keys.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

/** A block (or one line of it) in bash with `set -eo pipefail`, from `cwd`. */
async function sh(script: string, cwd: string, extra: Record<string, string> = {}) {
  mkdirSync(cwd, { recursive: true });
  const result = await execa('bash', ['-c', `set -eo pipefail\n${script}`], { cwd, env: { ...env, ...extra }, extendEnv: false, reject: false, timeout: 60_000 });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

async function runs(script: string, cwd: string, extra: Record<string, string> = {}) {
  const result = await sh(script, cwd, extra);
  expect(result.exitCode, `this README example failed:\n${script}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
  return result;
}

beforeAll(async () => {
  // The data is what an application on a v3 SDK sent (the batch route, in dual mode); the examples
  // then read it from the server as Langfuse v4 and Cloud run it (events_only, the default), over the
  // same data directory.
  const dataDir = join(tempDir('llmobs-readme-data-'), 'data');
  const seeding = await startServer({ port: 0, dataDir, writeMode: 'dual' });
  server = seeding;
  // Generations in May 2026 (more than a page of the export), a trace of user-42 from an hour ago
  // with the id the README reads, and one failed generation.
  const may = Array.from({ length: 1_200 }, (_, i) => {
    const at = new Date(Date.UTC(2026, 4, 1) + i * 30 * 60_000).toISOString();
    return { id: `ev-${i}`, type: 'generation-create', timestamp: at, body: { id: `gen-${i}`, traceId: `trace-${i % 300}`, startTime: at, endTime: at, name: 'answer', model: 'gpt-4o', usageDetails: { input: 100 + i, output: 20 } } };
  });
  for (let i = 0; i < may.length; i += 400) expect(await post(server, '/api/public/ingestion', { batch: may.slice(i, i + 400) })).toBe(207);
  // And some in the last month and the last week, which the spend examples read.
  const now = new Date();
  const recent = Array.from({ length: 20 }, (_, i) => {
    const at = new Date(i < 10 ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 3 + i) : now.getTime() - (i - 9) * 6 * 3_600_000).toISOString();
    return { id: `ev-recent-${i}`, type: 'generation-create', timestamp: at, body: { id: `gen-recent-${i}`, traceId: 'trace-recent', startTime: at, endTime: at, name: 'answer', model: i % 2 ? 'gpt-4o' : 'gpt-4o-mini', usageDetails: { input: 1000, output: 200 } } };
  });
  expect(await post(server, '/api/public/ingestion', { batch: recent })).toBe(207);
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  expect(
    await post(server, '/api/public/ingestion', {
      batch: [
        { id: 'ev-t', type: 'trace-create', timestamp: hourAgo, body: { id: '7f3c9a2e', name: 'chat', userId: 'user-42', timestamp: hourAgo, input: { question: 'Hi' }, output: { answer: 'Hello!' } } },
        { id: 'ev-g', type: 'generation-create', timestamp: hourAgo, body: { id: 'gen-chat', traceId: '7f3c9a2e', name: 'answer', startTime: hourAgo, endTime: hourAgo, model: 'gpt-4o', input: 'Hi', output: 'Hello!', level: 'ERROR', statusMessage: 'timeout' } },
      ],
    }),
  ).toBe(207);
  await seeding.close();
  server = await startServer({ port: 0, dataDir });
  expect(server.writeMode).toBe('events_only');
  // The reader's connection to the server: it fails pages of observations on cue.
  proxy = await startFaultProxy(server.url, (request) => (failPages && request.path.startsWith('/api/public/v2/observations') && request.path.includes('cursor=') ? { kind: 'answer', status: 500 } : { kind: 'pass' }));

  root = tempDir('llmobs-readme-');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  mkdirSync(join(root, 'home'));
  writeFileSync(join(bin, 'llmobs'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'llmobs'), 0o755);
  env = { HOME: join(root, 'home'), PATH: `${bin}:${process.env.PATH}`, LANG: 'C.UTF-8' };
  // The profile of "Connect to Langfuse", pointed at the local server (through the proxy).
  const added = await sh(`printf %s '${server.keys.secretKey}' | llmobs profile add local --base-url ${proxy.url} --public-key ${server.keys.publicKey} --secret-key-stdin --default`, root);
  expect(added.exitCode, added.stderr).toBe(0);
});

afterAll(async () => {
  for (const child of spawned) child.kill('SIGTERM');
  await Promise.all(spawned.map((child) => child.catch(() => {})));
  await proxy?.close();
  await server?.close();
});

describe('README shell examples', () => {
  it('are each run by a test or listed as not run, with why', () => {
    const blocks = shBlocks(README);
    expect(blocks.length).toBeGreaterThanOrEqual(20);
    const uncovered = blocks.filter((block) => !coverageOf(block)).map((block) => `## ${block.section}\n${block.text}`);
    expect(uncovered, 'add these README blocks to COVERAGE: run them, or say why not').toEqual([]);
    for (const entry of COVERAGE) expect(blocks.some((block) => coverageOf(block) === entry), `no README block for ${entry.section}: ${entry.first}`).toBe(true);
  });

  it('finds the sh blocks and their sections', () => {
    const markdown = '# x\n\n## One\n\n```sh\na\n```\n```yaml\nb: 1\n```\n## Two\ntext\n```sh\nc\nd\n```\n';
    expect(shBlocks(markdown)).toEqual([{ section: 'One', text: 'a\n' }, { section: 'Two', text: 'c\nd\n' }]);
  });

  // A few dozen processes one after another: time for a busy machine.
  it('Prompts in git: the CI steps, on a pull request that edits a prompt and its merge', { timeout: 120_000 }, async () => {
    const cwd = join(root, 'prompts-ci');
    for (const [i, text] of ['first', 'second', 'third'].entries()) {
      expect(await post(server, '/api/public/v2/prompts', { name: 'support/agent', type: 'chat', prompt: [{ role: 'system', content: `You are a support agent (${text}).` }], labels: i === 2 ? ['production'] : [] })).toBe(201);
    }
    // The repository: pulled, then a pull request edits the prompt.
    await runs('llmobs prompts pull', cwd);
    writeFileSync(join(cwd, 'prompts/support/agent.yaml'), readFileSync(join(cwd, 'prompts/support/agent.yaml'), 'utf8').replace('(third)', '(fourth)'));
    const [status, push, promote] = example('Prompts in git, and promotion in CI', 'llmobs prompts status --label staging --exit-code').trimEnd().split('\n');
    // The pull request's check: 9, it changes prompts (as its comment says).
    const check = await sh(status!, cwd);
    expect(check.exitCode, check.stderr).toBe(9);
    await runs(push!, cwd, { GITHUB_SHA: 'abc123' });
    const promoted = await runs(promote!, cwd);
    expect(promoted.stderr).toContain("Moved 'production' of 'support/agent' from version 3 to version 4");
  });

  it('Gate CI on spend', { timeout: 60_000 }, async () => {
    const cwd = join(root, 'spend');
    const result = await runs(example('Gate CI on spend', ''), cwd);
    expect(result.stdout).toContain('gpt-4o-mini');
    expect(readFileSync(join(cwd, 'week.csv'), 'utf8')).toMatch(/^day,cost,inputTokens,outputTokens,count\n\d{4}-\d\d-\d\dT00:00:00.000Z,/);
  });

  it('Count tokens and estimate costs, and new prices for last month', { timeout: 60_000 }, async () => {
    const cwd = join(root, 'tokens');
    mkdirSync(cwd);
    // The files the examples name.
    writeFileSync(join(cwd, 'prompt.txt'), 'Summarise the quarterly report in 20 words.\n');
    writeFileSync(join(cwd, 'messages.json'), JSON.stringify([{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'What is the capital of France?' }]));
    writeFileSync(join(cwd, 'answer.txt'), 'Paris.');
    writeFileSync(join(cwd, 'generations.jsonl'), `${JSON.stringify({ model: 'gpt-4o', usageDetails: { input: 1200, output: 300 } })}\n${JSON.stringify({ model: 'gpt-4o-mini', input: 'Hi', output: 'Hello!' })}\n`);
    writeFileSync(join(cwd, 'new-prices.yaml'), 'name: gpt-4o-new\nmatch_pattern: "(?i)^(openai/)?(gpt-4o)$"\nunit: TOKENS\npricing:\n  input: 0.000001\n  output: 0.000004\n');
    const estimates = await runs(example('Count tokens and estimate costs', 'llmobs tokens count'), cwd);
    expect(estimates.stdout).toContain('Definitions');
    expect(readFileSync(join(cwd, 'estimates.jsonl'), 'utf8').trimEnd().split('\n').length).toBeGreaterThanOrEqual(2);
    const repriced = await runs(example('Count tokens and estimate costs', 'llmobs observations export --type GENERATION'), cwd);
    expect(readFileSync(join(cwd, 'may.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(1_200);
    expect(repriced.stdout).toContain('gpt-4o-new');
  });

  it('Read traces and export observations: the export fails midway, and --resume finishes it', { timeout: 60_000 }, async () => {
    const cwd = join(root, 'traces');
    const lines = example('Read traces and export observations', '').trimEnd().split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.startsWith('#')) continue;
      // The comment after this line says what happens to it: the network fails.
      const fails = lines[i + 1]?.startsWith('# ... the network fails') ?? false;
      failPages = fails;
      const result = await sh(line, cwd);
      failPages = false;
      expect(result.exitCode, `${line}\n${result.stderr}`).toBe(fails ? 5 : 0);
      if (line.includes('traces list')) expect(result.stdout).toContain('7f3c9a2e');
      if (line.includes('traces get')) expect(result.stdout).toContain('Hello!');
      if (line.includes('--level ERROR')) expect(result.stdout).toContain('gen-chat');
      if (fails) expect(result.stderr).toContain('--resume');
    }
    const ids = readFileSync(join(cwd, 'may.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).id as string);
    expect(new Set(ids).size).toBe(1_200);
    expect(ids).toHaveLength(1_200);
  });

  it('Export to blob storage: a first run writes windows and manifests, a second only what is new', { timeout: 120_000 }, async () => {
    const cwd = join(root, 'blob');
    const [first, second] = example('Export to blob storage', '').trimEnd().split('\n');
    await runs(first!, cwd);
    const project = readdirSync(join(cwd, 'lake')).find((name) => !name.includes('llmobs'))!;
    const manifests = readdirSync(join(cwd, 'lake', project, 'manifests'));
    expect(manifests.length).toBeGreaterThan(20);
    const again = await runs(second!, cwd);
    expect(again.stderr).toContain('Up to date');
    expect(readdirSync(join(cwd, 'lake', project, 'manifests'))).toEqual(manifests);
  });

  it('Record traces locally: the server, the variables it prints, and reading back', { timeout: 60_000 }, async () => {
    const cwd = join(root, 'record');
    mkdirSync(cwd);
    const command = example('Record traces locally', 'llmobs server').trim().replace('--port 3000', '--port 0');
    const child = execa('bash', ['-c', `exec ${command}`], { cwd, env, extendEnv: false, reject: false });
    spawned.push(child);
    const printed = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (/Secret key\t\S+/.test(text)) resolve(text);
      });
      child.on('exit', (code) => reject(new Error(`${command} exited with ${code}: ${text}`)));
    });
    const url = /listening on (\S+)/.exec(printed)![1]!;
    const publicKey = /Public key\t(\S+)/.exec(printed)![1]!;
    const secretKey = /Secret key\t(\S+)/.exec(printed)![1]!;
    const variables = example('Record traces locally', 'export LANGFUSE_BASE_URL=')
      .replace('http://127.0.0.1:3000', url)
      .replace('LANGFUSE_PUBLIC_KEY=pk-lf-...', `LANGFUSE_PUBLIC_KEY=${publicKey}`)
      .replace('LANGFUSE_SECRET_KEY=sk-lf-...', `LANGFUSE_SECRET_KEY=${secretKey}`);
    expect(variables).not.toContain('...');
    const server2 = { url, keys: { publicKey, secretKey } } as RunningServer;
    // What the SDKs of the README send: a generation over OTLP (the batch route is closed in events_only).
    const nanos = `${Date.now()}000000`;
    const attribute = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const span = { traceId: '7f3c9a2e00000000000000000000beef', spanId: '00000000000a11ce', name: 'answer', startTimeUnixNano: nanos, endTimeUnixNano: nanos, attributes: [attribute('langfuse.observation.type', 'generation'), attribute('langfuse.observation.model.name', 'gpt-4o'), attribute('langfuse.observation.input', 'Hi'), attribute('langfuse.observation.output', 'Hello!')] };
    expect(await post(server2, '/api/public/otel/v1/traces', { resourceSpans: [{ scopeSpans: [{ scope: { name: 'langfuse-sdk' }, spans: [span] }] }] })).toBe(200);
    // The variables win over the active profile: what is read is this server's.
    const read = await runs(`${variables}${example('Record traces locally', 'llmobs traces list')}`, cwd);
    expect(read.stdout).toContain('7f3c9a2e00000000000000000000beef');
    expect(read.stdout).toMatch(/GENERATION\s+answer\s+gpt-4o/);
    expect(read.stdout).toContain('00000000000a11ce');
    expect(existsSync(join(cwd, 'lf-data'))).toBe(true);
  });

  it('In scripts and CI: with the project\'s keys in the environment, no profile', { timeout: 60_000 }, async () => {
    const cwd = join(root, 'scripts');
    expect(await post(server, '/api/public/v2/prompts', { name: 'team/summary', prompt: 'Summarise {{text}}.' })).toBe(201);
    const keys = { LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey, HOME: join(root, 'ci-home') };
    mkdirSync(keys.HOME);
    const result = await runs(example('In scripts and CI', ''), cwd, keys);
    expect(result.stdout).toContain('team/summary');
    expect(readFileSync(join(cwd, 'models.csv'), 'utf8')).toMatch(/gpt-4o/);
  });

  it('Shell completion: the scripts land where each shell looks', { timeout: 60_000 }, async () => {
    const home = join(root, 'completion-home');
    mkdirSync(home);
    await runs(example('Shell completion', ''), join(root, 'completion'), { HOME: home });
    for (const file of ['.local/share/bash-completion/completions/llmobs', '.zfunc/_llmobs', '.config/fish/completions/llmobs.fish']) {
      expect(readFileSync(join(home, file), 'utf8').length, file).toBeGreaterThan(100);
    }
  });
});
