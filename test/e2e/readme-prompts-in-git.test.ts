// The "Prompts in git" examples, run as written with the built binary against local servers: the
// command examples of the README's section (on a project with prompts, and on an empty one), and
// every example of docs/prompts-in-git.md: its prompt files pushed into an empty project, its pull,
// status and push commands, every `run:` step of both GitHub Actions workflows, the copy between
// regions and the model definitions commands. A test checks that no block of the page is left out.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { BIN, llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';

const root = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(root, 'README.md'), 'utf8');
const PAGE = readFileSync(join(root, 'docs', 'prompts-in-git.md'), 'utf8');

/** The README's section under this heading, up to the next one of its level. */
function readmeSection(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README: ${heading} not found`);
  const end = README.indexOf('\n## ', start + heading.length + 2);
  return end < 0 ? README.slice(start) : README.slice(start, end);
}

/** The first fenced block of `lang` after `marker` in `text`. */
function block(text: string, marker: string, lang: string): string {
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`${marker} not found`);
  const open = text.indexOf('```' + lang + '\n', start);
  const close = text.indexOf('\n```', open + 4);
  return text.slice(open + lang.length + 4, close + 1);
}

/** Every fenced block of a Markdown text: its language and text, and the marker comment right before it. */
function fencedBlocks(text: string): Array<{ lang: string; text: string; marker: string | undefined }> {
  return [...text.matchAll(/(?:<!-- ([^>]*?) -->\n)?```([a-z]*)\n([\s\S]*?)\n```/g)].map((m) => ({ marker: m[1], lang: m[2]!, text: `${m[3]!}\n` }));
}

/** The prompt files the page shows (`<!-- file: PATH -->` before the block). */
const fileExamples = (text: string) => fencedBlocks(text).flatMap((b) => (b.marker?.startsWith('file: ') ? [[b.marker.slice(6), b.text] as const] : []));

/** The lines of a sh block that are commands (comments after # dropped by the shell itself). */
const commands = (sh: string) => sh.split('\n').filter((line) => line.trim() !== '');

let eu: RunningServer;
let us: RunningServer;
let shims: string;

beforeAll(async () => {
  [eu, us] = await Promise.all([startServer({ port: 0, ephemeral: true }), startServer({ port: 0, ephemeral: true })]);
  // `llmobs` on PATH is the built binary, as `npm install --global llmobs` would give.
  shims = tempDir('llmobs-shims-');
  writeFileSync(join(shims, 'llmobs'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shims, 'llmobs'), 0o755);
});
afterAll(async () => {
  await Promise.all([eu?.close(), us?.close()]);
});

const keysOf = (server: RunningServer) => ({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });

async function sh(script: string, cwd: string, env: Record<string, string | undefined>) {
  const result = await execa('bash', ['-c', `set -eo pipefail\n${script}`], { cwd, env: { ...env, PATH: `${shims}:${process.env.PATH}` }, extendEnv: false, reject: false, timeout: 120_000 });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

async function seed(server: RunningServer, body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/public/v2/prompts`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
}

async function get(server: RunningServer, path: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}` } });
  return response.json() as Promise<any>;
}

// Dozens of processes one after another: generous time-outs, since the machine may be busy.
describe('README and docs/prompts-in-git.md: Prompts in git', { timeout: 300_000 }, () => {
  it('the command examples and the GitHub Actions workflow run as written', async () => {
    await seed(eu, { name: 'shared/signature', prompt: 'The support team', labels: ['production'] });
    await seed(eu, {
      name: 'support/agent',
      type: 'chat',
      prompt: [{ role: 'system', content: 'You are a support agent.\n@@@langfusePrompt:name=shared/signature|label=production@@@' }, { type: 'placeholder', name: 'history' }],
      labels: ['production'],
      config: { model: 'gpt-4o' },
    });
    const repo = tempDir('llmobs-repo-');
    const env = isolatedEnv(keysOf(eu));

    for (const line of commands(block(readmeSection('## Prompts in git, and promotion in CI'), '## Prompts in git', 'sh'))) {
      const result = await sh(line, repo, env);
      expect(result.exitCode, `${line}\n${result.stderr}`).toBe(0);
    }
    expect(readFileSync(join(repo, 'prompts/support/agent.yaml'), 'utf8')).toContain('@@@langfusePrompt:name=shared/signature|label=production@@@');

    const workflow = parse(block(PAGE, '<!-- example: prompts-in-git-workflow -->', 'yaml')) as { jobs: Record<string, { steps: Array<{ run?: string }> }> };
    const job = (name: string) => workflow.jobs[name]!.steps.map((step) => step.run).filter((run): run is string => run !== undefined && !run.startsWith('npm install'));
    const runJob = async (name: string, extra: Record<string, string> = {}) => {
      for (const script of job(name)) {
        const result = await sh(script, repo, { ...env, ...extra });
        if (result.exitCode !== 0) return result;
      }
      return { exitCode: 0, stdout: '', stderr: '' };
    };
    expect(Object.keys(workflow.jobs)).toEqual(['plan', 'push', 'promote', 'drift']);
    // llmobs is not on the npm registry: `npm install --global llmobs` would fail, or install
    // whatever someone published under that name. Every job installs the packed tarball.
    const installs = Object.values(workflow.jobs).flatMap((j) => j.steps.map((step) => step.run ?? '').filter((run) => run.startsWith('npm install')));
    expect(installs).toHaveLength(4);
    for (const install of installs) expect(install).toMatch(/^npm install --global \.\/vendor\/llmobs-[\d.]+\.tgz/);
    // Two pushes at once would both create the new versions.
    expect((workflow.jobs.push as { concurrency?: unknown }).concurrency).toBeTruthy();

    // A pull request that edits a prompt: the plan shows it, and the check passes.
    writeFileSync(join(repo, 'prompts/shared/signature.md'), 'The friendly support team\n');
    const summary = join(repo, 'summary.md');
    expect((await runJob('plan', { GITHUB_STEP_SUMMARY: summary })).exitCode).toBe(0);
    expect(readFileSync(summary, 'utf8')).toContain('+The friendly support team');

    // A pull request with a broken file fails the check.
    mkdirSync(join(repo, 'prompts/broken'), { recursive: true });
    writeFileSync(join(repo, 'prompts/broken/x.yaml'), 'messages:\n  - content: no role\n');
    expect((await runJob('plan', { GITHUB_STEP_SUMMARY: summary })).exitCode).toBe(2);
    writeFileSync(join(repo, 'prompts/broken/x.yaml'), 'messages:\n  - role: user\n    content: fixed\n');

    // The merge: push with staging, then promotion to production.
    expect((await runJob('push', { GITHUB_SHA: 'abc123' })).exitCode).toBe(0);
    expect(await get(eu, '/api/public/v2/prompts/shared%2Fsignature?label=staging&resolve=false')).toMatchObject({ prompt: 'The friendly support team', commitMessage: 'git abc123' });
    expect((await runJob('promote')).exitCode).toBe(0);
    expect(await get(eu, '/api/public/v2/prompts/shared%2Fsignature?label=production&resolve=false')).toMatchObject({ prompt: 'The friendly support team' });
    expect(await get(eu, '/api/public/v2/prompts/broken%2Fx?label=production&resolve=false')).toMatchObject({ version: 1 });

    // The nightly drift check: in sync, until someone edits a prompt outside git.
    expect((await runJob('drift')).exitCode).toBe(0);
    await seed(eu, { name: 'shared/signature', prompt: 'edited in the UI' });
    const drift = await runJob('drift');
    expect(drift.exitCode).toBe(9);
  });

  it('every block of docs/prompts-in-git.md is run by this file', () => {
    const blocks = fencedBlocks(PAGE);
    const sections = ['## Pull, status, push', '## Copying prompts between projects and regions', '## Model definitions in git'];
    const runHere = new Set([...sections.map((heading) => block(PAGE, heading, 'sh')), ...fileExamples(PAGE).map(([, text]) => text)]);
    for (const marker of ['example: prompts-in-git-workflow', 'example: promote-with-rollback']) runHere.add(block(PAGE, `<!-- ${marker} -->`, 'yaml'));
    // A fence inside the workflow (the step summary's) is not a block of the page.
    const left = blocks.filter((b) => b.lang !== '' && !runHere.has(b.text));
    expect(left.map((b) => `${b.lang}: ${b.text.slice(0, 60)}`)).toEqual([]);
    expect(fileExamples(PAGE).map(([path]) => path)).toEqual(['prompts/support/welcome.md', 'prompts/shared/signature.md', 'prompts/support/agent.yaml']);
  });

  it('from an empty project: the README commands, and the page\'s files and commands, run as written', async () => {
    const servers = await Promise.all([startServer({ port: 0, ephemeral: true }), startServer({ port: 0, ephemeral: true })]);
    try {
      // The README's commands: pull creates prompts/, the new file goes up with staging.
      const repo = tempDir('llmobs-empty-');
      const env = isolatedEnv(keysOf(servers[0]!));
      for (const line of commands(block(readmeSection('## Prompts in git, and promotion in CI'), '## Prompts in git', 'sh'))) {
        const result = await sh(line, repo, env);
        expect(result.exitCode, `${line}\n${result.stderr}`).toBe(0);
      }
      expect(await get(servers[0]!, '/api/public/v2/prompts/support%2Fwelcome?label=staging&resolve=false')).toMatchObject({ prompt: 'Hello {{name}}, how can we help?', version: 1 });

      // The page's files in a new repository, then its commands: status says 9 (something to
      // push, as its comment says), push sends them referenced prompt first, and all is in sync.
      const docRepo = tempDir('llmobs-files-');
      const docEnv = isolatedEnv(keysOf(servers[1]!));
      for (const [path, text] of fileExamples(PAGE)) {
        mkdirSync(dirname(join(docRepo, path)), { recursive: true });
        writeFileSync(join(docRepo, path), text);
      }
      const [pull, status, push] = commands(block(PAGE, '## Pull, status, push', 'sh'));
      for (const [line, code] of [[pull!, 0], [status!, 9], [push!, 0], [status!, 0], [pull!, 0]] as const) {
        const result = await sh(line, docRepo, docEnv);
        expect(result.exitCode, `${line}\n${result.stderr}`).toBe(code);
      }
      expect(await get(servers[1]!, '/api/public/v2/prompts/support%2Fwelcome?label=staging')).toMatchObject({ prompt: 'Hello {{name}}, thanks for writing to us.\nThe support team', config: { model: 'gpt-4o', temperature: 0 } });
      expect(await get(servers[1]!, '/api/public/v2/prompts/support%2Fagent?label=staging')).toMatchObject({ type: 'chat', prompt: [{ role: 'system', content: 'You are a support agent.\nAnswer in {{language}}.' }, { type: 'placeholder', name: 'history' }, { role: 'user', content: '{{question}}' }] });
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });

  it('the promotion job with rollback runs as written: a failing smoke test puts production back', async () => {
    await seed(us, { name: 'rollback/demo', prompt: 'version one', labels: ['production'] });
    await seed(us, { name: 'rollback/demo', prompt: 'version two', labels: ['staging'] });
    const workflow = parse(block(PAGE, '<!-- example: promote-with-rollback -->', 'yaml')) as { jobs: { promote: { steps: Array<{ run?: string; id?: string; if?: string }> } } };
    const cwd = tempDir();
    const outputs = join(cwd, 'github-output');
    writeFileSync(outputs, '');
    writeFileSync(join(cwd, 'smoke-test.sh'), '#!/bin/sh\necho "smoke test failed" >&2\nexit 1\n');
    chmodSync(join(cwd, 'smoke-test.sh'), 0o755);
    const env = { ...isolatedEnv(keysOf(us)), PROMPT: 'rollback/demo', GITHUB_OUTPUT: outputs };
    // What GitHub Actions does with the steps: ${{ steps.promote.outputs.X }} from GITHUB_OUTPUT,
    // and `if: failure()` steps only after a failed one.
    const stepOutputs = () => Object.fromEntries(readFileSync(outputs, 'utf8').trim().split('\n').filter(Boolean).map((line) => line.split('=') as [string, string]));
    let failed = false;
    const ran: string[] = [];
    for (const step of workflow.jobs.promote.steps) {
      if (step.run === undefined || step.run.startsWith('npm install')) continue;
      if (step.if !== undefined && !(step.if.startsWith('failure()') && failed)) continue;
      if (failed && step.if === undefined) continue;
      const script = step.run.replace(/\$\{\{ steps\.promote\.outputs\.(\w+) \}\}/g, (_, key: string) => stepOutputs()[key] ?? '');
      const result = await sh(script, cwd, env);
      ran.push(step.run.split('\n')[0]!);
      if (result.exitCode !== 0) {
        expect(step.run, `${script}\n${result.stderr}`).toBe('./smoke-test.sh');
        failed = true;
      }
    }
    expect(ran).toHaveLength(4);
    expect(stepOutputs()).toEqual({ previous: '1', version: '2' });
    expect(await get(us, '/api/public/v2/prompts/rollback%2Fdemo?label=production&resolve=false')).toMatchObject({ version: 1, prompt: 'version one' });
  });

  it('the copy between regions runs as written, and a second run sends nothing', async () => {
    const env = isolatedEnv();
    for (const [name, server] of [['eu', eu], ['us', us]] as const) {
      const added = await llmobs(['profile', 'add', name, '--base-url', server.url, '--public-key', server.keys.publicKey, '--secret-key-stdin'], { env, input: server.keys.secretKey });
      expect(added.exitCode, added.stderr).toBe(0);
    }
    expect((await llmobs(['profile', 'use', 'eu'], { env })).exitCode).toBe(0);
    const cwd = tempDir();
    for (const line of commands(block(PAGE, '## Copying prompts between projects and regions', 'sh'))) {
      const result = await sh(line, cwd, env);
      expect(result.exitCode, `${line}\n${result.stderr}`).toBe(0);
    }
    const agent = await get(us, '/api/public/v2/prompts/support%2Fagent?label=production&resolve=false');
    expect(agent.prompt[0].content).toContain('@@@langfusePrompt:name=shared/signature|label=production@@@');
    const again = await sh('llmobs prompts copy --all --from-profile eu --to-profile us', cwd, env);
    expect(again.stderr).toContain('Nothing to copy');
  });

  it('the model definitions examples run as written', async () => {
    const response = await fetch(`${eu.url}/api/public/models`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${eu.keys.publicKey}:${eu.keys.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ modelName: 'my-model', matchPattern: '(?i)^my-model$', unit: 'TOKENS', inputPrice: 0.000001 }),
    });
    expect(response.status).toBe(200);
    const cwd = tempDir();
    const env = isolatedEnv(keysOf(eu));
    for (const line of commands(block(PAGE, '## Model definitions in git', 'sh'))) {
      const result = await sh(line, cwd, env);
      expect(result.exitCode, `${line}\n${result.stderr}`).toBe(0);
    }
    expect(readFileSync(join(cwd, 'models.yaml'), 'utf8')).toContain('modelName: my-model');
  });
});
