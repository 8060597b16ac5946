// The metrics (v2, v1 and daily), the v3 traces list's stats and the v1 observations list's total
// of a server with a data directory are computed on its read thread, those of an in-memory server on its event loop (the stats in
// slices): the built binary, both ways, over the same events, gives the same answers, refusals
// included.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { basicHeader, type ServerProcess, type Started, startServerProcess } from '../helpers/server-process.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-x', null];

function events() {
  const out: unknown[] = [];
  for (let t = 0; t < 12; t++) {
    out.push({ id: `te-${t}`, type: 'trace-create', timestamp: iso(T0), body: { id: `t${t}`, name: t % 3 ? 'chat' : 'batch', userId: `u${t % 4}`, tags: t % 2 ? ['a'] : ['a', 'b'] } });
    out.push({ id: `se-${t}`, type: 'score-create', timestamp: iso(T0 + t * 60_000), body: { id: `s${t}`, traceId: `t${t}`, name: t % 2 ? 'quality' : 'speed', value: t / 12 } });
    for (let i = 0; i < 25; i++) {
      const n = t * 25 + i;
      const start = T0 + (n % 17) * 3_600_000 * (n % 5);
      out.push({
        id: `ge-${n}`,
        type: 'generation-create',
        timestamp: iso(start),
        body: {
          id: `g${n}`, traceId: `t${t}`, name: n % 4 ? 'llm' : 'tool', model: MODELS[n % MODELS.length], startTime: iso(start), endTime: iso(start + (n % 7) * 250),
          metadata: { k: n % 2 ? 'v' : 'w' }, usageDetails: { input: n % 300, output: n % 40 }, costDetails: { input: (n % 300) * 1e-6, output: (n % 40) * 3e-6 },
        },
      });
    }
  }
  return out;
}

async function api(started: Started, path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(started.url + path, { ...init, headers: { authorization: basicHeader(started), 'content-type': 'application/json' } });
  return { status: response.status, text: await response.text() };
}

const metrics = (query: unknown) => `/api/public/v2/metrics?query=${encodeURIComponent(JSON.stringify(query))}`;
const range = { fromTimestamp: iso(T0 - 3_600_000), toTimestamp: iso(T0 + 40 * 86_400_000) };
const QUERIES = [
  { view: 'observations', dimensions: [{ field: 'providedModelName' }], metrics: [{ measure: 'totalCost', aggregation: 'sum' }, { measure: 'inputTokens', aggregation: 'sum' }, { measure: 'count', aggregation: 'count' }], ...range },
  { view: 'observations', dimensions: [{ field: 'traceName' }, { field: 'tags' }], metrics: [{ measure: 'latency', aggregation: 'p90' }, { measure: 'uniqueUserIds', aggregation: 'uniq' }], timeDimension: { granularity: 'day' }, ...range },
  { view: 'observations', metrics: [{ measure: 'latency', aggregation: 'histogram' }], filters: [{ column: 'name', type: 'string', operator: '=', value: 'llm' }], ...range },
  // A filter on metadata: the engine over the rows, after the read thread declined.
  { view: 'observations', metrics: [{ measure: 'count', aggregation: 'count' }], filters: [{ column: 'metadata', type: 'stringObject', key: 'k', operator: '=', value: 'v' }], ...range },
  // The score views: the engine over the rows, on the read thread too.
  { view: 'scores-numeric', dimensions: [{ field: 'name' }], metrics: [{ measure: 'value', aggregation: 'avg' }, { measure: 'count', aggregation: 'count' }], ...range },
  // Refused before any read.
  { view: 'observations', metrics: [{ measure: 'nope', aggregation: 'sum' }], ...range },
  { view: 'observations', metrics: [{ measure: 'count', aggregation: 'count' }], orderBy: [{ field: 'nope', direction: 'asc' }], ...range },
];

const metricsV1 = (query: unknown) => `/api/public/metrics?query=${encodeURIComponent(JSON.stringify(query))}`;
const V1_QUERIES = [
  { view: 'traces', dimensions: [{ field: 'name' }], metrics: [{ measure: 'count', aggregation: 'count' }, { measure: 'totalCost', aggregation: 'sum' }, { measure: 'latency', aggregation: 'p50' }], ...range },
  { view: 'observations', dimensions: [{ field: 'providedModelName' }, { field: 'userId' }], metrics: [{ measure: 'totalTokens', aggregation: 'sum' }, { measure: 'countScores', aggregation: 'sum' }], ...range },
  { view: 'scores-numeric', dimensions: [{ field: 'name' }], metrics: [{ measure: 'value', aggregation: 'avg' }], timeDimension: { granularity: 'day' }, ...range },
  // The service's 422: an answer past 100,000 rows (the empty minutes of the range filled in).
  { view: 'observations', metrics: [{ measure: 'count', aggregation: 'count' }], timeDimension: { granularity: 'minute' }, fromTimestamp: iso(T0), toTimestamp: iso(T0 + 200_000 * 60_000) },
  // Refused before any read.
  { view: 'traces', metrics: [{ measure: 'nope', aggregation: 'sum' }], ...range },
];
const TRACES = [
  '/api/public/traces?fields=core,metrics',
  '/api/public/traces',
  '/api/public/traces?fields=observations,scores&limit=5&page=2',
  `/api/public/traces?fields=metrics&filter=${encodeURIComponent(JSON.stringify([{ column: 'environment', type: 'stringOptions', operator: 'none of', value: ['default'] }]))}`,
  '/api/public/traces?fields=metrics&environment=nowhere',
];
const DAILY = ['/api/public/metrics/daily', '/api/public/metrics/daily?limit=1&page=2', `/api/public/metrics/daily?traceName=chat&tags=a&fromTimestamp=${iso(T0)}`, '/api/public/metrics/daily?limit=0'];

describe('metrics on the read thread', { timeout: 120_000 }, () => {
  let onDisk: ServerProcess;
  let inMemory: ServerProcess;
  let disk: Started;
  let memory: Started;

  beforeAll(async () => {
    const env = isolatedEnv();
    onDisk = startServerProcess(['--write-mode', 'dual', '--data-dir', join(tempDir(), 'data')], env);
    inMemory = startServerProcess(['--write-mode', 'dual', '--ephemeral'], env);
    [disk, memory] = await Promise.all([onDisk.ready, inMemory.ready]);
    const batch = events();
    for (const started of [disk, memory]) {
      for (let i = 0; i < batch.length; i += 100) expect((await api(started, '/api/public/ingestion', { method: 'POST', body: JSON.stringify({ batch: batch.slice(i, i + 100) }) })).status).toBe(207);
    }
  });
  afterAll(async () => {
    onDisk?.child.kill();
    inMemory?.child.kill();
  });

  it('starts its read thread from a server run with `node -e` (whose Node options do not apply to a file)', async () => {
    const dist = join(import.meta.dirname, '..', '..', 'dist', 'server.mjs');
    const script = `const { startServer } = await import(${JSON.stringify(dist)});
      const s = await startServer({ port: 0, dataDir: ${JSON.stringify(join(tempDir(), 'data'))}, writeMode: 'dual' });
      console.log(JSON.stringify({ url: s.url, ...s.keys }));`;
    const child = execa(process.execPath, ['--input-type=module', '-e', script], { env: isolatedEnv(), extendEnv: false, reject: false });
    try {
      const started = await new Promise<Started>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as Started)));
      const batch = events();
      expect((await api(started, '/api/public/ingestion', { method: 'POST', body: JSON.stringify({ batch: batch.slice(0, 100) }) })).status).toBe(207);
      const answer = await api(started, metrics(QUERIES[0]));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).data.length).toBeGreaterThan(0);
    } finally {
      child.kill();
    }
  });

  it('answers as the event loop does', async () => {
    const answers = [];
    for (const query of QUERIES) {
      const [a, b] = await Promise.all([api(disk, metrics(query)), api(memory, metrics(query))]);
      expect(a, JSON.stringify(query)).toEqual(b);
      answers.push(a);
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 400, 400]);
    expect(JSON.parse(answers[4]!.text).data).toHaveLength(2);
    expect(JSON.parse(answers[0]!.text).data).toHaveLength(MODELS.length);
  });

  it('answers the v1 metrics and the daily metrics as the event loop does', async () => {
    const answers = [];
    for (const path of [...V1_QUERIES.map(metricsV1), ...DAILY]) {
      const [a, b] = await Promise.all([api(disk, path), api(memory, path)]);
      expect(a, path).toEqual(b);
      answers.push(a);
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 422, 400, 200, 200, 200, 400]);
    expect(JSON.parse(answers[0]!.text).data).toHaveLength(2);
    expect(JSON.parse(answers[5]!.text).meta.totalItems).toBeGreaterThan(0);
  });

  it('answers the v1 observations list, whose total is counted on the read thread, as the event loop does', async () => {
    const paths = ['/api/public/observations?limit=7&page=3', '/api/public/observations?name=tool&limit=5', '/api/public/observations?type=GENERATION&userId=u1&limit=4&page=2', '/api/public/observations?name=nope', `/api/public/observations?fromStartTime=${iso(T0 + 3_600_000)}&limit=3`, '/api/public/observations?limit=9&page=30', '/api/public/observations?limit=9&page=40'];
    // The two servers' own project and the records' times differ; the rest is the same.
    const own = new Set(['projectId', 'createdAt', 'updatedAt']);
    const comparable = (text: string) => {
      const body = JSON.parse(text) as { data: Array<Record<string, unknown>>; meta: { totalItems: number } };
      return { ...body, data: body.data.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => !own.has(key)))) };
    };
    const answers = [];
    for (const path of paths) {
      const [a, b] = await Promise.all([api(disk, path), api(memory, path)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(comparable(a.text), path).toEqual(comparable(b.text));
      answers.push(comparable(a.text));
    }
    expect(answers.map((answer) => answer.meta.totalItems)).toEqual([300, 75, 75, 0, answers[4]!.meta.totalItems, 300, 300]);
    expect(answers[4]!.meta.totalItems).toBeGreaterThan(0);
    expect(answers[4]!.meta.totalItems).toBeLessThan(300);
    // Page 30 of 9 is rows 262 to 270; page 40 is past the end.
    expect(answers.slice(5).map((answer) => answer.data.length)).toEqual([9, 0]);
    // A page of everyday observations is one slice: whole, with its length.
    const whole = await fetch(`${disk.url}/api/public/observations?limit=7&page=3`, { headers: { authorization: basicHeader(disk) } });
    expect(whole.headers.get('content-length')).toMatch(/^\d+$/);
    await whole.text();
  });

  it('answers the v3 traces list as the event loop does', async () => {
    const answers = [];
    // The servers' own fields (project id, creation times) aside.
    const sums = (answer: { status: number; text: string }) => ({
      status: answer.status,
      meta: JSON.parse(answer.text).meta,
      data: JSON.parse(answer.text).data.map(({ id, observations, scores, totalCost, latency }: Record<string, unknown>) => ({ id, observations, scores, totalCost, latency })),
    });
    for (const path of TRACES) {
      const [a, b] = await Promise.all([api(disk, path), api(memory, path)]);
      expect(sums(a), path).toEqual(sums(b));
      answers.push(a);
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const costs = JSON.parse(answers[0]!.text).data.map((trace: { totalCost: number }) => trace.totalCost);
    expect(costs).toHaveLength(12);
    expect(costs.every((cost: number) => cost > 0)).toBe(true);
  });

  // The server runs in a process whose Worker holds the read thread's requests until told: a
  // request held there was not answered on the event loop, which meanwhile answers the others.
  it('sends v1 and daily metrics and the traces list to the read thread, and answers health while they wait', async () => {
    const dist = join(import.meta.dirname, '..', '..', 'dist', 'server.mjs');
    const script = `const { Worker } = await import('node:worker_threads');
      const held = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message) {
        held.push(() => post.call(this, message));
        process.stderr.write('held ' + Object.keys(message).filter((key) => key !== 'id').join() + '\\n');
      };
      process.stdin.on('data', () => held.splice(0).forEach((send) => send()));
      const { startServer } = await import(${JSON.stringify(dist)});
      const s = await startServer({ port: 0, dataDir: ${JSON.stringify(join(tempDir(), 'data'))}, writeMode: 'dual' });
      console.log(JSON.stringify({ url: s.url, ...s.keys }));`;
    const child = execa(process.execPath, ['--input-type=module', '-e', script], { env: isolatedEnv(), extendEnv: false, reject: false });
    let stderr = '';
    const checks: Array<() => void> = [];
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      for (const check of checks) check();
    });
    const heldLine = (kind: string) =>
      new Promise<string>((resolve) => {
        const check = () => stderr.includes(`held ${kind}\n`) && resolve('held');
        checks.push(check);
        check();
      });
    try {
      const started = await new Promise<Started>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as Started)));
      expect((await api(started, '/api/public/ingestion', { method: 'POST', body: JSON.stringify({ batch: events().slice(0, 100) }) })).status).toBe(207);
      for (const [kind, path] of [['metricsV1Query', metricsV1(V1_QUERIES[0])], ['dailyMetrics', DAILY[0]!], ['traceStats', TRACES[0]!]] as const) {
        const answer = api(started, path);
        // Answered before its request reached the thread: it ran on the event loop.
        expect(await Promise.race([heldLine(kind), answer.then(() => 'answered')]), kind).toBe('held');
        expect((await api(started, '/api/public/health')).status).toBe(200);
        child.stdin!.write('go\n');
        expect((await answer).status, kind).toBe(200);
      }
    } finally {
      child.kill();
    }
  });
});

describe('checkpoints on the read thread', { timeout: 120_000 }, () => {
  // The WAL is copied into the database file by the read thread soon after writes, well before
  // the 10,000 pages at which the writing connection would do it on the event loop.
  it('copies what was written into the database file within seconds, the server still running', async () => {
    const dataDir = join(tempDir(), 'data');
    const server = startServerProcess(['--write-mode', 'dual', '--data-dir', dataDir], isolatedEnv());
    try {
      const started = await server.ready;
      const file = join(dataDir, 'llmobs.db');
      const before = statSync(file).size;
      // About 2 MB of spans: 500 pages, far from 10,000.
      const batch = Array.from({ length: 200 }, (_, i) => ({ id: `c-${i}`, type: 'span-create', timestamp: iso(T0), body: { id: `span-${i}`, traceId: 'ckpt', startTime: iso(T0 + i), input: `${i} ${'x'.repeat(10_000)}` } }));
      expect((await api(started, '/api/public/ingestion', { method: 'POST', body: JSON.stringify({ batch }) })).status).toBe(207);
      const deadline = Date.now() + 60_000;
      while (statSync(file).size < before + 1_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(statSync(file).size).toBeGreaterThan(before + 1_000_000);
      // Read back through the API: nothing was lost on the way.
      const page = JSON.parse((await api(started, '/api/public/v2/observations?traceId=ckpt&limit=1000&fields=core')).text) as { data: unknown[] };
      expect(page.data).toHaveLength(200);
    } finally {
      server.child.kill();
    }
  });
});
