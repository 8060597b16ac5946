// The server's data directory under stress, with the built binary as a separate process: a disk
// that refuses writes, servers started at the same instant, kill -9, stale pid files of a
// container's PID 1, and hostile JSON. Each case is a defect the state-file store had.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src/server/store/index.js';
import { MIGRATIONS } from '../../src/server/store/migrations.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { basicHeader, type Started, startServerProcess } from '../helpers/server-process.js';

async function api(started: Started, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(started.url + path, {
    method,
    headers: { authorization: basicHeader(started), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // a plain-text answer
  }
  return { status: response.status, body: parsed };
}

const versionsOf = async (started: Started, name: string): Promise<number[]> =>
  (await api(started, 'GET', `/api/public/v2/prompts?name=${name}`)).body.data[0]?.versions ?? [];

function hasPrlimit(): boolean {
  try {
    execaSync('prlimit', ['--version']);
    return true;
  } catch {
    return false;
  }
}

// Several server processes per case: generous time limits for a loaded machine.
describe('the server data directory', { timeout: 120_000 }, () => {
  it.skipIf(!hasPrlimit())('keeps nothing of a write the disk refuses, and a retry after the disk recovers gets the next version, not a duplicate', async () => {
    const env = isolatedEnv();
    const dataDir = join(tempDir(), 'data');
    // Files of the server may not grow past 3 MB: a full disk, as the process sees it.
    const limited = startServerProcess(['--data-dir', dataDir], env, ['prlimit', '--fsize=3000000:3000000']);
    const started = await limited.ready;
    const content = 'x'.repeat(300_000);
    let accepted = 0;
    let failure: { status: number; body: any } | undefined;
    for (let i = 0; i < 30 && !failure; i++) {
      const answer = await api(started, 'POST', '/api/public/v2/prompts', { name: 'big', prompt: `${i}:${content}` });
      if (answer.status === 201) {
        accepted++;
        expect(answer.body.version).toBe(accepted);
      } else failure = answer;
    }
    expect(failure?.status).toBe(500);
    expect(failure?.body.error).toMatch(/could not be written .*nothing of this request was stored/);
    expect(accepted).toBeGreaterThan(0);
    // The refused version is not visible, and the server still answers reads.
    expect(await versionsOf(started, 'big')).toEqual(Array.from({ length: accepted }, (_, i) => i + 1));
    expect((await api(started, 'GET', `/api/public/v2/prompts/big?version=${accepted + 1}`)).status).toBe(404);
    limited.child.kill('SIGTERM');
    await limited.child;
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    const recovered = startServerProcess(['--data-dir', dataDir], env);
    const again = await recovered.ready;
    expect(await versionsOf(again, 'big')).toEqual(Array.from({ length: accepted }, (_, i) => i + 1));
    expect((await api(again, 'POST', '/api/public/v2/prompts', { name: 'big', prompt: 'retry' })).body.version).toBe(accepted + 1);
    recovered.child.kill('SIGTERM');
    await recovered.child;
  });

  it.skipIf(!hasPrlimit())('keeps every ingestion request acknowledged before the disk filled up, and nothing of the one it refused', async () => {
    const env = isolatedEnv();
    const dataDir = join(tempDir(), 'data');
    const limited = startServerProcess(['--data-dir', dataDir, '--write-mode', 'legacy'], env, ['prlimit', '--fsize=3000000:3000000']);
    const started = await limited.ready;
    const at = '2026-03-01T10:00:00.000Z';
    const batchOf = (request: number) => [
      { id: `t-${request}`, type: 'trace-create', timestamp: at, body: { id: `trace-${request}`, name: 'kept' } },
      ...Array.from({ length: 50 }, (_, i) => ({
        id: `g-${request}-${i}`,
        type: 'generation-create',
        timestamp: at,
        body: { id: `gen-${request}-${i}`, traceId: `trace-${request}`, model: 'gpt-4o', input: `${request}-${i}:${'x'.repeat(2_000)}`, usageDetails: { input: 10, output: 2 } },
      })),
    ];
    let accepted = 0;
    let failure: { status: number; body: any } | undefined;
    for (let request = 0; request < 100 && !failure; request++) {
      const answer = await api(started, 'POST', '/api/public/ingestion', { batch: batchOf(request) });
      if (answer.status === 207) {
        expect(answer.body.errors).toEqual([]);
        accepted++;
      } else failure = answer;
    }
    expect(failure?.status).toBe(500);
    expect(failure?.body.error).toMatch(/could not be written .*nothing of this request was stored/);
    expect(accepted).toBeGreaterThan(0);
    limited.child.kill('SIGKILL');
    await limited.child;

    const recovered = startServerProcess(['--data-dir', dataDir, '--write-mode', 'legacy'], env);
    const again = await recovered.ready;
    expect((await api(again, 'GET', '/api/public/observations?limit=1')).body.meta.totalItems).toBe(accepted * 50);
    expect((await api(again, 'GET', `/api/public/observations/gen-${accepted - 1}-49`)).body).toMatchObject({ input: `${accepted - 1}-49:${'x'.repeat(2_000)}`, usageDetails: { input: 10, output: 2, total: 12 } });
    expect((await api(again, 'GET', `/api/public/observations/gen-${accepted}-0`)).status).toBe(404);
    // The refused request sent again is stored once.
    expect((await api(again, 'POST', '/api/public/ingestion', { batch: batchOf(accepted) })).body.errors).toEqual([]);
    expect((await api(again, 'POST', '/api/public/ingestion', { batch: batchOf(accepted) })).body.errors).toEqual([]);
    expect((await api(again, 'GET', '/api/public/observations?limit=1')).body.meta.totalItems).toBe((accepted + 1) * 50);
    recovered.child.kill('SIGTERM');
    await recovered.child;
  });

  it('lets exactly one of several servers started at the same instant take the directory, after a crash too', async () => {
    for (let round = 0; round < 2; round++) {
      const env = isolatedEnv();
      const dataDir = join(tempDir(), 'data');
      if (round > 0) {
        // What a crashed server of the pid-file kind left: a lock naming a process that is gone.
        mkdirSync(dataDir);
        writeFileSync(join(dataDir, 'server.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, startedAt: '2026-01-01T00:00:00.000Z' }));
      }
      const servers = Array.from({ length: 5 }, () => startServerProcess(['--data-dir', dataDir], env));
      const outcomes = await Promise.allSettled(servers.map((server) => server.ready));
      const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/exited with 6: .*in use by another llmobs server/s);
      }
      const winner = (winners[0] as PromiseFulfilledResult<Started>).value;
      const created = await Promise.all(Array.from({ length: 5 }, (_, i) => api(winner, 'POST', '/api/public/v2/prompts', { name: 'race', prompt: `${i}` })));
      expect(created.map((answer) => answer.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.child));
    }
  });

  it('starts again after kill -9, even when stale pid files name pid 1 (a restarted container)', async () => {
    const env = isolatedEnv();
    const dataDir = join(tempDir(), 'data');
    const first = startServerProcess(['--data-dir', dataDir], env);
    const started = await first.ready;
    expect((await api(started, 'POST', '/api/public/v2/prompts', { name: 'kept', prompt: 'x' })).status).toBe(201);
    first.child.kill('SIGKILL');
    await first.child;
    // A server that ran as PID 1 in a container leaves pid files naming pid 1, which is alive again.
    writeFileSync(join(dataDir, 'server.lock'), JSON.stringify({ pid: 1, startedAt: '2026-01-01T00:00:00.000Z' }));
    writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ pid: 1, startedAt: '2026-01-01T00:00:00.000Z' }));

    const second = startServerProcess(['--data-dir', dataDir], env);
    const restarted = await second.ready;
    expect(restarted).toMatchObject({ created: false, publicKey: started.publicKey });
    expect(await versionsOf(restarted, 'kept')).toEqual([1]);
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
    second.child.kill('SIGTERM');
    await second.child;
  });

  it('keeps every ingestion request acknowledged before a kill -9 (WAL with synchronous=NORMAL)', async () => {
    const env = isolatedEnv();
    const dataDir = join(tempDir(), 'data');
    // Traces over the batch route, counted with the v3 read routes: legacy mode.
    const first = startServerProcess(['--data-dir', dataDir, '--write-mode', 'legacy'], env);
    const started = await first.ready;
    const at = '2026-03-01T10:00:00.000Z';
    for (let request = 0; request < 5; request++) {
      const batch = [
        { id: `t-${request}`, type: 'trace-create', timestamp: at, body: { id: `trace-${request}`, name: 'kept' } },
        ...Array.from({ length: 20 }, (_, i) => ({
          id: `g-${request}-${i}`,
          type: 'generation-create',
          timestamp: at,
          body: { id: `gen-${request}-${i}`, traceId: `trace-${request}`, model: 'gpt-4o', usageDetails: { input: 10, output: 2 } },
        })),
      ];
      const answer = await api(started, 'POST', '/api/public/ingestion', { batch });
      expect(answer).toMatchObject({ status: 207, body: { errors: [] } });
    }
    // Killed right after the last answer: nothing had time to be checkpointed or synced.
    first.child.kill('SIGKILL');
    await first.child;

    const second = startServerProcess(['--data-dir', dataDir, '--write-mode', 'legacy'], env);
    const restarted = await second.ready;
    expect((await api(restarted, 'GET', '/api/public/traces?limit=100')).body.meta.totalItems).toBe(5);
    expect((await api(restarted, 'GET', '/api/public/observations?limit=1')).body.meta.totalItems).toBe(100);
    expect((await api(restarted, 'GET', '/api/public/observations/gen-4-19')).body).toMatchObject({ usageDetails: { input: 10, output: 2, total: 12 } });
    second.child.kill('SIGTERM');
    await second.child;
  });

  it('says on stderr what a migration that rewrites the store does, and how far it is, keeping stdout the JSON start line', async () => {
    const dir = join(tempDir(), 'data');
    mkdirSync(dir);
    // A store of schema 5, its observations in the row format migration 6 rewrites.
    const db = new (createRequire(import.meta.url)('libsql'))(join(dir, DATABASE_FILE));
    for (const migration of MIGRATIONS.slice(0, 5)) (typeof migration === 'string' ? db.exec(migration) : migration(db));
    const insert = db.prepare("INSERT INTO observations (id, type, environment, level, start_time, created_at, updated_at, record) VALUES (?, 'EVENT', 'default', 'DEFAULT', ?, ?, ?, ?)");
    db.exec('BEGIN');
    for (let i = 0; i < 1_500; i++) {
      const at = new Date(Date.UTC(2026, 2, 1, 0, 0, i)).toISOString();
      insert.run([`o${i}`, at, at, at, JSON.stringify({ id: `o${i}`, type: 'EVENT', startTime: at })]);
    }
    db.exec('PRAGMA user_version = 5; COMMIT');
    db.close();

    const server = startServerProcess(['--data-dir', dir], isolatedEnv());
    const started = await server.ready;
    expect((await api(started, 'GET', '/api/public/health')).status).toBe(200);
    server.child.kill('SIGTERM');
    const { stdout, stderr } = await server.child;
    expect(String(stdout).trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ url: started.url })]);
    const lines = String(stderr).split('\n');
    expect(lines[0]).toBe('Upgrading the data directory: moving 1,500 observations to the compact row format of schema 6, 1,000 at a time; if it is stopped, the next start goes on from where it stopped.');
    expect(lines[1]).toMatch(/^Upgraded the data directory: 1,500 rows in \d+(\.\d)? s\.$/);
  });

  it('refuses a prompt config nested 6,000 levels with a 400, and every later write still reaches disk', async () => {
    const env = isolatedEnv();
    const dataDir = join(tempDir(), 'data');
    const first = startServerProcess(['--data-dir', dataDir], env);
    const started = await first.ready;
    const deep = `{"name":"deep","prompt":"x","config":${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}}`;
    const refused = await api(started, 'POST', '/api/public/v2/prompts', deep);
    expect(refused.status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await api(started, 'POST', '/api/public/v2/prompts', { name: 'after', prompt: `${i}` })).status).toBe(201);
    first.child.kill('SIGKILL');
    await first.child;

    const second = startServerProcess(['--data-dir', dataDir], env);
    const restarted = await second.ready;
    expect(await versionsOf(restarted, 'after')).toEqual([1, 2, 3]);
    expect(await versionsOf(restarted, 'deep')).toEqual([]);
    second.child.kill('SIGTERM');
    await second.child;
  });
});
