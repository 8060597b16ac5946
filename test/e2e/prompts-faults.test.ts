// prompts push through a proxy that fails on cue in front of the real local server: a 429 in the
// middle, a 500 on the third create, connections cut before and after the server did the work.
// Each push says what was pushed and what not, and a re-run completes without duplicates.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { isolatedEnv, runInProcess, tempDir } from '../helpers/cli.js';
import { type FaultAction, type FaultProxy, type ProxiedRequest, startFaultProxy } from '../helpers/fault-proxy.js';
import { localCli } from '../helpers/local-cli.js';

let server: RunningServer;
let proxy: FaultProxy | undefined;
let cwd: string;

beforeEach(async () => {
  server = await startServer({ port: 0, ephemeral: true });
  cwd = tempDir();
  mkdirSync(join(cwd, 'prompts'));
  for (let i = 1; i <= 6; i++) writeFileSync(join(cwd, 'prompts', `p${i}.md`), `prompt ${i}\n`);
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await server.close();
});

async function push(decide: (request: ProxiedRequest, index: number) => FaultAction, args: string[] = []) {
  await proxy?.close();
  proxy = await startFaultProxy(server.url, decide);
  const sleeps: number[] = [];
  const env = isolatedEnv({ LANGFUSE_HOST: proxy.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
  const result = await runInProcess(['prompts', 'push', ...args], { env, cwd, sleeps });
  return { ...result, sleeps, seen: proxy.seen };
}

const creates = (seen: FaultProxy['seen']) => seen.filter((r) => r.method === 'POST');
async function versionsOnServer(): Promise<Record<string, number[]>> {
  const response = await fetch(`${server.url}/api/public/v2/prompts?limit=100`, { headers: { authorization: `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}` } });
  const page = (await response.json()) as { data: Array<{ name: string; versions: number[] }> };
  return Object.fromEntries(page.data.map((p) => [p.name, p.versions]));
}
const once = (every: Record<string, number[]>) => Object.values(every).every((versions) => versions.length === 1);

describe('push through failures', () => {
  it('waits out a 429 in the middle as Retry-After says, with progress on stderr, and finishes', async () => {
    let posts = 0;
    const result = await push((request) => {
      if (request.method === 'POST' && ++posts === 3) return { kind: 'answer', status: 429, headers: { 'retry-after': '7' }, body: JSON.stringify({ message: 'Rate limit exceeded' }) };
      return { kind: 'pass' };
    });
    expect(result.exitCode).toBe(0);
    expect(result.sleeps).toContain(7000);
    expect(result.stderr).toContain("429 rate limited: waiting 7 s before retry 1/3 of 'p3' (2/6 pushed)");
    expect(creates(result.seen)).toHaveLength(7);
    const versions = await versionsOnServer();
    expect(Object.keys(versions)).toHaveLength(6);
    expect(once(versions)).toBe(true);
  });

  it('a rate limit on every few writes (like 30 a minute): the push waits each one out and finishes, every prompt once', async () => {
    for (let i = 7; i <= 40; i++) writeFileSync(join(cwd, 'prompts', `p${i}.md`), `prompt ${i}\n`);
    let writes = 0;
    let limited = false;
    const result = await push((request) => {
      if (request.method === 'GET') return { kind: 'pass' };
      // Every fifth write is refused once, as a window that is full until Retry-After has passed.
      if (!limited && ++writes % 5 === 0) {
        limited = true;
        return { kind: 'answer', status: 429, headers: { 'retry-after': '20' }, body: JSON.stringify({ message: 'Rate limit exceeded' }) };
      }
      limited = false;
      return { kind: 'pass' };
    });
    expect(result.exitCode).toBe(0);
    expect(result.sleeps.filter((ms) => ms === 20_000)).toHaveLength(8);
    expect(result.stderr.match(/429 rate limited: waiting 20 s/g)).toHaveLength(8);
    const versions = await versionsOnServer();
    expect(Object.keys(versions)).toHaveLength(40);
    expect(once(versions)).toBe(true);
  });

  it('stops at a 500 on the third create, says what was pushed and what not, and a re-run completes', async () => {
    let posts = 0;
    const failed = await push((request) => (request.method === 'POST' && ++posts === 3 ? { kind: 'answer', status: 500, body: JSON.stringify({ message: 'Internal Server Error' }) } : { kind: 'pass' }));
    expect(failed.exitCode).toBe(5);
    expect(failed.stderr).toContain("push stopped at 'p3' (new). Pushed 2 of 6: p1, p2. Not pushed: p3, p4, p5, p6.");
    expect(failed.stderr).toContain('Run the same push again');
    expect(creates(failed.seen)).toHaveLength(3);
    expect(Object.keys(await versionsOnServer())).toEqual(['p1', 'p2']);

    const rerun = await push(() => ({ kind: 'pass' }));
    expect(rerun.exitCode).toBe(0);
    expect(creates(rerun.seen).map((r) => JSON.parse(r.body).name)).toEqual(['p3', 'p4', 'p5', 'p6']);
    expect(once(await versionsOnServer())).toBe(true);
  });

  it('--json has the same keys when the push stops midway as when it finishes', async () => {
    const first = await push(() => ({ kind: 'pass' }), ['--json']);
    writeFileSync(join(cwd, 'prompts', 'p2.md'), 'prompt 2 edited\n');
    writeFileSync(join(cwd, 'prompts', 'p3.md'), 'prompt 3 edited\n');
    let posts = 0;
    const failed = await push((request) => (request.method === 'POST' && ++posts === 2 ? { kind: 'answer', status: 500, body: '{}' } : { kind: 'pass' }), ['--json']);
    expect(failed.exitCode).toBe(5);
    const report = JSON.parse(failed.stdout);
    expect(Object.keys(report).sort()).toEqual(Object.keys(JSON.parse(first.stdout)).sort());
    expect(report).toMatchObject({ dryRun: false, pushed: [{ name: 'p2', status: 'new version', version: 2 }], unchanged: 4, failed: { name: 'p3', status: 'changed' }, notPushed: [] });
  });

  it('a create whose answer is lost (connection cut after the server created it) is not created twice on re-run', async () => {
    let posts = 0;
    const failed = await push((request) => (request.method === 'POST' && ++posts === 2 ? { kind: 'reset-after' } : { kind: 'pass' }));
    expect(failed.exitCode).toBe(4);
    // POST is never repeated by the client: it cannot know whether the server got it.
    expect(creates(failed.seen)).toHaveLength(2);
    expect(failed.stderr).toContain("push stopped at 'p2'");
    const rerun = await push(() => ({ kind: 'pass' }));
    expect(rerun.exitCode).toBe(0);
    expect(creates(rerun.seen).map((r) => JSON.parse(r.body).name)).toEqual(['p3', 'p4', 'p5', 'p6']);
    expect(once(await versionsOnServer())).toBe(true);
  });

  it('a read whose connection is cut is retried and the push goes on', async () => {
    let gets = 0;
    const result = await push((request) => (request.method === 'GET' && ++gets === 1 ? { kind: 'reset-before' } : { kind: 'pass' }));
    expect(result.exitCode).toBe(0);
    expect(result.seen.filter((r) => r.action === 'reset-before')).toHaveLength(1);
    expect(Object.keys(await versionsOnServer())).toHaveLength(6);
  });

  it('exits 10 when still rate limited after every retry, with the same report', async () => {
    let posts = 0;
    const result = await push(
      (request) => (request.method === 'POST' && ++posts >= 2 ? { kind: 'answer', status: 429, headers: { 'retry-after': '1' }, body: JSON.stringify({ message: 'Rate limit exceeded' }) } : { kind: 'pass' }),
      ['--retries', '2'],
    );
    expect(result.exitCode).toBe(10);
    expect(result.stderr).toContain('Pushed 1 of 6: p1. Not pushed: p2, p3, p4, p5, p6.');
    expect(creates(result.seen)).toHaveLength(4);
  });
});

// ---- pull then push sends nothing, over random prompts stored on the server -------------------

const piece = fc.constantFrom('\n', '\r\n', '\r', '\t', ' ', '---\n', '#', ': ', '"', "'", '\\', '{{name}}', '{{ x }}', '@@@langfusePrompt:name=base|label=production@@@', 'é', '日本', '🙂', '\u2028', '\uFEFF', 'null', '- ', '|');
const text = fc.array(fc.oneof(piece, fc.string(), fc.string({ unit: 'grapheme-composite' })), { maxLength: 8 }).map((parts) => parts.join(''));
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'user', 'assistant'), content: text }),
  fc.record({ type: fc.constant('placeholder'), name: fc.stringMatching(/^ph[a-z]{0,5}$/) }),
);
const config = fc.oneof(fc.constant(undefined), fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null))));
const prompt = fc.oneof(
  fc.record({ type: fc.constant('text'), prompt: text, config }),
  fc.record({ type: fc.constant('chat'), prompt: fc.array(message, { maxLength: 4 }), config }),
);

describe('round trip against the server', { timeout: 180_000 }, () => {
  it('random text and chat prompts: pull then push sends nothing, and the files read back exactly', async () => {
    const cli = await localCli();
    try {
      await cli.seed({ name: 'base', prompt: 'shared', labels: ['production'] });
      let round = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(prompt, { minLength: 1, maxLength: 6 }), async (prompts) => {
          round++;
          const names: string[] = [];
          for (const [i, body] of prompts.entries()) {
            // Placeholder names must not repeat as variables; the generator's never clash with {{name}}/{{ x }}.
            const name = `r${round}/${i % 2 ? 'chat' : 'p'}-${i}`;
            names.push(name);
            await cli.seed({ name, ...body, ...(body.config === undefined ? {} : { config: body.config }) });
          }
          const dir = tempDir();
          const pulled = await cli.run(['prompts', 'pull', ...names], { cwd: dir });
          expect(pulled.exitCode, pulled.stderr).toBe(0);
          const pushed = await cli.run(['prompts', 'push', ...names], { cwd: dir });
          expect(pushed.exitCode, pushed.stderr).toBe(0);
          expect(pushed.sent.filter((r) => r.method !== 'GET')).toEqual([]);
        }),
        { numRuns: 25 },
      );
    } finally {
      await cli.close();
    }
  });
});
