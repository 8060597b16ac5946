#!/usr/bin/env node
// prompts status / push / pull of N prompt files (default 1,000) against the local server: the
// requests each sends (counted by the server, by method) and the wall time of the whole `llmobs`
// process. Beside it, in the same run, the two scripts users write instead: one that creates a
// version of every prompt on every run, and one that fetches each prompt and creates a version
// only when the text differs (sequential, as such scripts are). See bench/README.md.
//
//   node bench/prompts-sync.mjs [--prompts 1000] [--edited 10]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { prompts: { type: 'string', default: '1000' }, edited: { type: 'string', default: '10' } } });
const count = Number(args.prompts);
const edited = Number(args.edited);
const serverModule = join(root, 'dist', 'server.mjs');
if (!existsSync(serverModule)) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
const { startServer } = await import(pathToFileURL(serverModule).href);

const requests = [];
const server = await startServer({ port: 0, ephemeral: true, log: (line) => requests.push(line.split(' ')[0]) });
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-'));
const home = join(work, 'home');
const env = {
  PATH: process.env.PATH,
  HOME: home,
  LLMOBS_CONFIG_DIR: join(home, 'config'),
  LANGFUSE_HOST: server.url,
  LANGFUSE_PUBLIC_KEY: server.keys.publicKey,
  LANGFUSE_SECRET_KEY: server.keys.secretKey,
};
const auth = `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;

// A repository of prompt files: text prompts in folders, every fifth one a chat prompt, every
// tenth text prompt referencing a shared one.
const repo = join(work, 'repo');
const dir = join(repo, 'prompts');
mkdirSync(join(dir, 'shared'), { recursive: true });
writeFileSync(join(dir, 'shared', 'tone.md'), 'Be kind and brief.\n');
const names = ['shared/tone'];
for (let i = 0; i < count - 1; i++) {
  const folder = join(dir, `team-${i % 20}`);
  mkdirSync(folder, { recursive: true });
  const name = `team-${i % 20}/prompt-${i}`;
  names.push(name);
  if (i % 5 === 0) {
    writeFileSync(join(folder, `prompt-${i}.yaml`), `type: chat\nconfig:\n  model: gpt-4o\nmessages:\n  - role: system\n    content: |-\n      You answer questions about topic ${i}.\n      Keep it short.\n  - placeholder: history\n  - role: user\n    content: "{{question}}"\n`);
  } else {
    const reference = i % 10 === 1 ? '\n@@@langfusePrompt:name=shared/tone|label=latest@@@' : '';
    writeFileSync(join(folder, `prompt-${i}.md`), `---\nconfig:\n  temperature: 0.${i % 10}\ntags:\n  - team-${i % 20}\n---\nSummarise {{text}} for reader ${i}.${reference}\n`);
  }
}

// The server runs in this process, so the CLI runs asynchronously beside it.
async function llmobs(argv, cwd = repo) {
  requests.length = 0;
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(root, 'bin', 'llmobs.js'), ...argv], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const status = await new Promise((resolve) => child.on('close', resolve));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (status !== 0 && status !== 9) throw new Error(`llmobs ${argv.join(' ')} exited ${status}: ${stderr}`);
  return { ms, requests: tally(), exit: status };
}

function tally() {
  const byMethod = {};
  for (const method of requests) byMethod[method] = (byMethod[method] ?? 0) + 1;
  return byMethod;
}

async function timed(fn) {
  requests.length = 0;
  const t0 = process.hrtime.bigint();
  const versions = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, requests: tally(), versions };
}

const fileOf = (name) => {
  const md = join(dir, `${name}.md`);
  return existsSync(md) ? { type: 'text', prompt: readFileSync(md, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '').replace(/\n$/, '') } : { type: 'chat', prompt: [{ role: 'user', content: 'x' }] };
};

// What users write instead (sketches of the scripts in USERS.md), with plain fetch.
async function createEverything() {
  for (const name of names) {
    const { type, prompt } = fileOf(name);
    await fetch(`${server.url}/api/public/v2/prompts`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ name, type, prompt, labels: [] }) }).then((r) => r.arrayBuffer());
  }
  return names.length;
}
async function fetchThenCreate() {
  let created = 0;
  for (const name of names) {
    const { type, prompt } = fileOf(name);
    const current = await fetch(`${server.url}/api/public/v2/prompts/${encodeURIComponent(name)}?label=latest`, { headers: { authorization: auth } }).then((r) => (r.ok ? r.json() : undefined));
    if (current && JSON.stringify(current.prompt) === JSON.stringify(prompt)) continue;
    await fetch(`${server.url}/api/public/v2/prompts`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ name, type, prompt, labels: [] }) }).then((r) => r.arrayBuffer());
    created++;
  }
  return created;
}

const rows = [];
const row = (what, result) => rows.push([what, result.ms, result.requests, result.versions]);
row(`llmobs prompts push (${count} new prompts)`, await llmobs(['prompts', 'push']));
row('llmobs prompts status (in sync)', await llmobs(['prompts', 'status']));
row('llmobs prompts push (nothing to do)', await llmobs(['prompts', 'push']));
row('llmobs prompts push --label staging (every label moves)', await llmobs(['prompts', 'push', '--label', 'staging']));
// Text prompts spread over the folders (every fifth prompt is chat, so skip those).
for (let i = 1, done = 0; done < edited && i < count - 1; i += 7) {
  const file = join(dir, `team-${i % 20}`, `prompt-${i}.md`);
  if (!existsSync(file)) continue;
  writeFileSync(file, readFileSync(file, 'utf8').replace('Summarise', 'Summarize'));
  done++;
}
row(`llmobs prompts status (${edited} files edited)`, await llmobs(['prompts', 'status']));
row(`llmobs prompts push --label staging (${edited} edited)`, await llmobs(['prompts', 'push', '--label', 'staging']));
const pulled = join(work, 'pulled');
mkdirSync(pulled);
row(`llmobs prompts pull (${count} prompts, empty dir)`, await llmobs(['prompts', 'pull'], pulled));
row('script: create every prompt on every run', await timed(createEverything));
row('script: fetch each, create if the text differs', await timed(fetchThenCreate));

await server.close();
rmSync(work, { recursive: true, force: true });

console.log(`${count} prompt files (${Math.ceil(count / 5)} chat), node ${process.version}; requests counted by the server`);
console.log('what                                                      wall ms   GET  POST PATCH  total   versions created');
for (const [what, ms, byMethod, versions] of rows) {
  const total = Object.values(byMethod).reduce((a, b) => a + b, 0);
  const fmt = (n) => String(n ?? 0).padStart(5);
  console.log(`${what.padEnd(56)} ${ms.toFixed(0).padStart(8)} ${fmt(byMethod.GET)} ${fmt(byMethod.POST)} ${fmt(byMethod.PATCH)} ${fmt(total).padStart(6)}   ${versions ?? byMethod.POST ?? 0}`);
}
