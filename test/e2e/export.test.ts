// `observations export` as a user runs it: the built binary against a fake Langfuse data server
// that fails on purpose (429, 5xx, a connection cut mid-page, a malformed page, Ctrl-C). After
// every failure `--resume` must give the full export: every id once, none missing.
import { existsSync, readFileSync, statSync, truncateSync, appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, llmobs } from '../helpers/bin.js';
import { isolatedEnv, runInProcess, tempDir } from '../helpers/cli.js';
import { type FakeDataOptions, type FakeDataServer, heldAnswer, startFakeDataServer, type Step, syntheticGenerations } from '../helpers/fake-data-api.js';

const TOTAL = 2_500;
const ALL_IDS = syntheticGenerations(TOTAL).map((o) => o.id).sort();
let server: FakeDataServer | undefined;

afterEach(async () => {
  expect(server?.contractIssues ?? []).toEqual([]);
  await server?.close();
  server = undefined;
});

async function start(options: FakeDataOptions = {}) {
  server = await startFakeDataServer(options);
  server.addObservations(syntheticGenerations(TOTAL));
  const env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey, LLMOBS_RETRY_BASE_MS: '10' });
  return { server, env, dir: tempDir() };
}

/** A fault on the n-th request for a page of observations (0-based), others answered normally. */
function onPage(n: number | ((page: number) => boolean), step: Step | (() => Step | undefined)): FakeDataOptions['fault'] {
  let page = -1;
  return ({ path }) => {
    if (path !== '/api/public/v2/observations') return undefined;
    page++;
    const hit = typeof n === 'number' ? page === n : n(page);
    if (!hit) return undefined;
    return typeof step === 'function' ? step() : step;
  };
}

/** A fault that holds page `n` until `release()`; `atGate` resolves once the command asked for it. */
function holdAtPage(n: number): { fault: FakeDataOptions['fault']; atGate: Promise<void>; release: () => void } {
  const { step, atGate, release } = heldAnswer();
  return { fault: onPage(n, step), atGate, release };
}

function ids(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line).id as string);
}

function expectComplete(file: string) {
  const list = ids(file);
  expect(list).toHaveLength(TOTAL);
  expect([...list].sort()).toEqual(ALL_IDS);
  expect(existsSync(`${file}.llmobs-checkpoint`)).toBe(false);
}

const pageRequests = () => server!.requests.filter((r) => r.path.startsWith('/api/public/v2/observations'));

describe('a complete export', () => {
  it('writes every observation once, page by page, newest first, and says how many', async () => {
    const { env, dir } = await start();
    const file = join(dir, 'all.jsonl');
    const result = await llmobs(['observations', 'export', '--output', file], { env });
    expect(result.exitCode).toBe(0);
    expectComplete(file);
    expect(ids(file).slice(0, 2)).toEqual(['gen-2500', 'gen-2499']);
    expect(result.stderr).toMatch(/Exported 2,500 observations \(3 pages\) to .*all\.jsonl in [\d.]+ s \([\d,]+\/s\)/);
    const paths = pageRequests().map((r) => new URL(r.path, 'http://x').searchParams);
    expect(paths.map((q) => q.get('limit'))).toEqual(['1000', '1000', '1000']);
    expect(paths[0]!.get('fields')).toBe('core,basic,time,io,metadata,model,usage,prompt,metrics,trace_context');
    expect(paths.map((q) => q.has('cursor'))).toEqual([false, true, true]);
  });

  it('writes CSV with the columns asked for, and JSON as one array, and stops at --limit', async () => {
    const { env, dir } = await start();
    const csv = join(dir, 'some.csv');
    let result = await runInProcess(['observations', 'export', '--output', csv, '--fields', 'id,providedModelName,usageDetails.input,totalCost', '--limit', '1500', '--environment', 'production'], { env });
    expect(result.exitCode).toBe(0);
    const rows = readFileSync(csv, 'utf8').trimEnd().split('\n');
    expect(rows[0]).toBe('id,providedModelName,usageDetails.input,totalCost');
    expect(rows).toHaveLength(1501);
    expect(rows[1]).toMatch(/^gen-2500,gpt-4o,100,0.00073$/);
    const q = new URL(pageRequests().at(-1)!.path, 'http://x').searchParams;
    expect([q.get('limit'), q.get('environment'), q.get('fields')]).toEqual(['500', 'production', 'core,model,usage']);

    const json = join(dir, 'all.json');
    result = await runInProcess(['observations', 'export', '--output', json, '--page-size', '700', '--type', 'GENERATION'], { env });
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(readFileSync(json, 'utf8')) as Array<{ id: string }>;
    expect(parsed.map((o) => o.id).sort()).toEqual(ALL_IDS);
  });

  it('writes a valid empty file when nothing matches, and streams to stdout without a checkpoint', async () => {
    const { env, dir } = await start();
    const json = join(dir, 'none.json');
    const result = await runInProcess(['observations', 'export', '--output', json, '--from', '2030-01-01'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual([]);
    const piped = await runInProcess(['observations', 'export', '--limit', '1200', '--format', 'jsonl'], { env });
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(1200);
    expect(piped.stderr).toContain('Exported 1,200 observations');
  });

  it('leaves an existing file alone when the first request fails', async () => {
    const { env, dir } = await start({ fault: onPage(0, { status: 401, body: JSON.stringify({ message: 'Invalid credentials' }) }) });
    const file = join(dir, 'keep.jsonl');
    writeFileSync(file, 'precious\n');
    const result = await runInProcess(['observations', 'export', '--output', file], { env });
    expect(result.exitCode).toBe(7);
    expect(readFileSync(file, 'utf8')).toBe('precious\n');
    expect(existsSync(`${file}.llmobs-checkpoint`)).toBe(false);
  });
});

describe('two commands writing one file', () => {
  it('the second stops at once (exit 6) naming the first one\'s pid, and the first finishes whole', async () => {
    const { fault, atGate, release } = holdAtPage(2);
    const { env, dir } = await start({ fault });
    const file = join(dir, 'o.jsonl');
    const first = execa(process.execPath, [BIN, 'observations', 'export', '--output', file], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    await atGate;
    const before = readFileSync(file);
    const checkpoint = readFileSync(`${file}.llmobs-checkpoint`);
    // Each is refused before its first request (the first export waits at its gate meanwhile).
    const sent = pageRequests().length;
    for (const args of [
      ['observations', 'export', '--output', file, '--fields', 'core'],
      ['observations', 'export', '--output', file, '--resume'],
      ['observations', 'list', '--all', '--output', file],
    ]) {
      const second = await llmobs(args, { env });
      expect(second.exitCode, `${args.join(' ')}\n${second.stderr}`).toBe(6);
      expect(second.stderr).toContain(`o.jsonl is being written by another llmobs command (pid ${first.pid}, since `);
      expect(second.stderr).toContain('Nothing was changed.');
      expect(pageRequests().length, args.join(' ')).toBe(sent);
    }
    // Compared as bytes: a deep comparison of a large Buffer is slow.
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readFileSync(`${file}.llmobs-checkpoint`, 'utf8')).toBe(checkpoint.toString('utf8'));
    release();
    const result = await first;
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(String(result.stderr)).toContain('Exported 2,500 observations');
    expectComplete(file);
    expect(existsSync(`${file}.llmobs-lock`)).toBe(false);
  });

  it('a lock left by a command that was killed is taken over', async () => {
    const { fault, atGate, release } = holdAtPage(1);
    const { env, dir } = await start({ fault });
    const file = join(dir, 'k.jsonl');
    const child = execa(process.execPath, [BIN, 'observations', 'export', '--output', file], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    await atGate;
    child.kill('SIGKILL');
    await child;
    release();
    expect(existsSync(`${file}.llmobs-lock`)).toBe(true);
    const resumed = await llmobs(['observations', 'export', '--output', file, '--resume'], { env });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expectComplete(file);
    expect(existsSync(`${file}.llmobs-lock`)).toBe(false);
  });
});

describe('faults in the middle of an export', () => {
  it('waits as Retry-After says after a 429, then goes on', async () => {
    const { env, dir } = await start({ fault: onPage(1, { status: 429, headers: { 'retry-after': '1' }, body: JSON.stringify({ message: 'Rate limit exceeded' }) }) });
    const file = join(dir, 'a.jsonl');
    const result = await runInProcess(['observations', 'export', '--output', file, '--verbose'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('retry 1/3 in 1000 ms (429 rate limited)');
    expectComplete(file);
    expect(pageRequests()).toHaveLength(4);
  });

  it('asks again after 503s and after a connection cut in the middle of a page', async () => {
    let cut = 0;
    const { env, dir } = await start({
      fault: onPage((p) => p === 1 || p === 2 || p === 3, () => (++cut <= 2 ? { status: 503, body: '{"message":"Service Unavailable"}' } : cut === 3 ? { resetMidBody: true, body: JSON.stringify({ data: [{ id: 'half' }], meta: {} }) } : undefined)),
    });
    const file = join(dir, 'b.jsonl');
    const result = await runInProcess(['observations', 'export', '--output', file], { env });
    expect(result.exitCode).toBe(0);
    expectComplete(file);
  });

  it('asks again for a malformed page', async () => {
    const { env, dir } = await start({ fault: onPage(1, { status: 200, body: '{"data":"not a list","meta":{}}' }) });
    const file = join(dir, 'c.jsonl');
    const result = await runInProcess(['observations', 'export', '--output', file, '--verbose'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('malformed page');
    expectComplete(file);
  });

  it('stops on a failure that persists, keeps what it wrote, and --resume finishes without loss or repeats', async () => {
    let broken = true;
    const { env, dir } = await start({ fault: onPage((p) => p >= 2 && broken, { status: 500, body: '{"message":"Internal Server Error","error":"boom"}' }) });
    const file = join(dir, 'd.jsonl');
    const failed = await runInProcess(['observations', 'export', '--output', file], { env });
    expect(failed.exitCode).toBe(5);
    expect(failed.stderr).toContain('2,000 observations are in');
    expect(failed.stderr).toContain(`llmobs observations export --output ${file} --resume`);
    expect(ids(file)).toHaveLength(2000);
    const checkpoint = JSON.parse(readFileSync(`${file}.llmobs-checkpoint`, 'utf8'));
    expect(checkpoint).toMatchObject({ items: 2000, pages: 2, bytes: statSync(file).size, complete: false });

    broken = false;
    const resumed = await runInProcess(['observations', 'export', '--output', file, '--resume'], { env });
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stderr).toContain('Resumed and finished 2,500 observations (3 pages)');
    expectComplete(file);
  });

  it('after a crash between writing a page and its checkpoint, --resume cuts the unfinished page and writes it again', async () => {
    let broken = true;
    const { env, dir } = await start({ fault: onPage((p) => p >= 1 && broken, { status: 400, body: '{"message":"Invalid request data","error":[]}' }) });
    const file = join(dir, 'e.jsonl');
    expect((await runInProcess(['observations', 'export', '--output', file], { env })).exitCode).toBe(5);
    // What a kill at the worst moment leaves: part of the next page, past the checkpoint.
    const before = statSync(file).size;
    appendFileSync(file, '{"id":"gen-1500","traceId":"x"}\n{"id":"gen-14');
    broken = false;
    const resumed = await runInProcess(['observations', 'export', '--output', file, '--resume'], { env });
    expect(resumed.exitCode).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(before);
    expectComplete(file);
  });

  it('refuses to resume a file that is shorter than its checkpoint, and to run over an unfinished export', async () => {
    let broken = true;
    const { env, dir } = await start({ fault: onPage((p) => p >= 1 && broken, { status: 400, body: '{"message":"Invalid request data","error":[]}' }) });
    const file = join(dir, 'f.jsonl');
    await runInProcess(['observations', 'export', '--output', file], { env });
    broken = false;
    const again = await runInProcess(['observations', 'export', '--output', file], { env });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('holds an unfinished export (1,000 observations so far)');
    const other = await runInProcess(['observations', 'export', '--output', file, '--resume', '--type', 'SPAN'], { env });
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('these options differ: type');

    truncateSync(file, 10);
    const shorter = await runInProcess(['observations', 'export', '--output', file, '--resume'], { env });
    expect(shorter.exitCode).toBe(6);
    expect(shorter.stderr).toContain('shorter');
    const forced = await runInProcess(['observations', 'export', '--output', file, '--force'], { env });
    expect(forced.exitCode).toBe(0);
    expectComplete(file);
    const nothing = await runInProcess(['observations', 'export', '--output', file, '--resume'], { env });
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('nothing to resume');
  });

  it('resumes a JSON array and a CSV export into files that parse whole', async () => {
    for (const [name, check] of [
      ['g.json', (text: string) => (JSON.parse(text) as Array<{ id: string }>).map((o) => o.id)],
      ['g.csv', (text: string) => text.trimEnd().split('\n').slice(1).map((row) => row.split(',')[0]!)],
    ] as const) {
      let broken = true;
      const { env, dir } = await start({ fault: onPage((p) => p === 1 && broken, { status: 400, body: '{"message":"Invalid request data","error":[]}' }) });
      const file = join(dir, name);
      expect((await runInProcess(['observations', 'export', '--output', file, '--fields', 'core,model'], { env })).exitCode).toBe(5);
      broken = false;
      expect((await runInProcess(['observations', 'export', '--output', file, '--resume'], { env })).exitCode).toBe(0);
      expect(check(readFileSync(file, 'utf8')).sort()).toEqual(ALL_IDS);
      expect(server!.contractIssues).toEqual([]);
      await server!.close();
      server = undefined;
    }
  });
});

describe('Ctrl-C', () => {
  it('stops at a page boundary on SIGINT (exit 130), says how to continue, and --resume completes it', async () => {
    const { fault, atGate, release } = holdAtPage(2);
    const { env, dir } = await start({ fault });
    const file = join(dir, 'h.jsonl');
    const child = execa(process.execPath, [BIN, 'observations', 'export', '--output', file], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    await atGate;
    let stderr = '';
    const stopping = new Promise<void>((resolve) => child.stderr!.on('data', (chunk: Buffer) => ((stderr += chunk.toString()).includes('SIGINT: stopping') ? resolve() : undefined)));
    child.kill('SIGINT');
    // The page in flight is answered only once the signal was seen.
    await stopping;
    release();
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toContain('interrupted (SIGINT): 2,000 observations');
    expect(String(result.stderr)).toContain('--resume');
    expect(ids(file)).toHaveLength(2000);
    // The two pages written before the third was asked for, and nothing else.
    expect(JSON.parse(readFileSync(`${file}.llmobs-checkpoint`, 'utf8'))).toMatchObject({ items: 2000, pages: 2, bytes: statSync(file).size });

    const resumed = await llmobs(['observations', 'export', '--output', file, '--resume'], { env });
    expect(resumed.exitCode).toBe(0);
    expectComplete(file);
  });

  it('during a long Retry-After wait ends at once (exit 130), not when the wait is over', async () => {
    const { env, dir } = await start({ fault: onPage(1, { status: 429, headers: { 'retry-after': '110' }, body: JSON.stringify({ message: 'Rate limit exceeded' }) }) });
    const file = join(dir, 'w.jsonl');
    // The bound (25 s) is far below the server's 110 s and far above start-up and one page under load.
    const child = execa(process.execPath, [BIN, 'observations', 'export', '--output', file], { env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 25_000 });
    let stderr = '';
    await new Promise<void>((resolve) => child.stderr!.on('data', (chunk: Buffer) => ((stderr += chunk.toString()).includes('asking again in 110 s') ? resolve() : undefined)));
    child.kill('SIGINT');
    const result = await child;
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(130);
    expect(ids(file)).toHaveLength(1000);

    const resumed = await llmobs(['observations', 'export', '--output', file, '--resume'], { env });
    expect(resumed.exitCode).toBe(0);
    expectComplete(file);
  });

  it('after a kill -9 at any point, --resume gives every id once', async () => {
    const { fault, atGate, release } = holdAtPage(2);
    const { env, dir } = await start({ fault });
    const file = join(dir, 'k.jsonl');
    const child = execa(process.execPath, [BIN, 'observations', 'export', '--output', file, '--page-size', '1000'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    await atGate;
    // Two pages are in the file; the checkpoint may not have caught up with them yet.
    child.kill('SIGKILL');
    const result = await child;
    expect(result.signal).toBe('SIGKILL');
    release();
    expect(existsSync(`${file}.llmobs-checkpoint`)).toBe(true);
    const resumed = await llmobs(['observations', 'export', '--output', file, '--resume'], { env });
    expect(resumed.exitCode).toBe(0);
    expectComplete(file);
  });
});
