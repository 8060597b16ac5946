// `llmobs traces get` and `traces list` as a user runs them: the built binary against a fake
// Langfuse server that has the legacy trace routes, and against one that answers like Langfuse
// Cloud in v4 (404 with the v4 message on those routes), where llmobs reads v2 observations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv, runInProcess } from '../helpers/cli.js';
import { CHAT_COST, CHAT_OBSERVATIONS, CHAT_SCORES, CHAT_TRACE } from '../helpers/data-fixtures.js';
import { type FakeDataServer, startFakeDataServer, syntheticGenerations, V4_MESSAGE } from '../helpers/fake-data-api.js';

let legacy: FakeDataServer;
let cloud: FakeDataServer;
let noV2: FakeDataServer;
const envFor = (server: FakeDataServer) => isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey, LLMOBS_RETRY_BASE_MS: '10' });

beforeAll(async () => {
  legacy = await startFakeDataServer();
  cloud = await startFakeDataServer({ cloud: true, numericStrings: true });
  noV2 = await startFakeDataServer({ cloud: true, v2: false });
  for (const server of [legacy, cloud]) {
    server.addTrace(CHAT_TRACE, CHAT_OBSERVATIONS, CHAT_SCORES);
    for (let i = 0; i < 120; i++) {
      server.addTrace(
        { id: `trace-${String(i).padStart(3, '0')}`, timestamp: new Date(Date.parse('2026-05-01T00:00:00Z') + i * 60_000).toISOString(), name: i % 2 ? 'odd' : 'even', userId: `u${i % 3}`, tags: i % 5 === 0 ? ['five'] : [] },
        [{ id: `root-${i}`, traceId: `trace-${String(i).padStart(3, '0')}`, startTime: new Date(Date.parse('2026-05-01T00:00:00Z') + i * 60_000).toISOString(), name: i % 2 ? 'odd' : 'even' }],
      );
    }
  }
});

afterAll(async () => {
  expect(legacy.contractIssues).toEqual([]);
  expect(noV2.contractIssues).toEqual([]);
  await Promise.all([legacy.close(), cloud.close(), noV2.close()]);
});

describe('traces get', () => {
  it('shows the trace, its totals and its observations as a tree (piped: one tab-separated row each, depth first)', async () => {
    const result = await llmobs(['traces', 'get', CHAT_TRACE.id], { env: envFor(legacy) });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('name\tchat-request');
    expect(lines).toContain('tags\tbeta, eu');
    expect(lines.find((l) => l.startsWith('totals'))).toMatch(/^totals\t\$0\.\d+ · 1,600 in \/ 120 out \/ 1,720 tokens · 2\.50 s · 6 observations \(2 GENERATION, .*\) · 1 ERROR · 1 WARNING$/);
    expect(lines).toContain('scores\thelpfulness=0.9 (API)');
    const rows = lines.filter((l) => /^\d\t/.test(l)).map((l) => l.split('\t'));
    expect(rows.map((r) => [r[0], r[1]])).toEqual([['0', 'obs-root'], ['1', 'obs-retrieve'], ['1', 'obs-llm-1'], ['2', 'obs-tool'], ['1', 'obs-llm-2'], ['1', 'obs-fail']]);
    const llm = rows.find((r) => r[1] === 'obs-llm-1')!;
    expect(llm.slice(2, 11)).toEqual(['GENERATION', 'draft-answer', 'gpt-4o', 'DEFAULT', '2026-05-02T10:00:00.310Z', '1.4', '1200', '80', String(CHAT_OBSERVATIONS[2]!.costDetails!.total)]);
    expect(rows.find((r) => r[1] === 'obs-fail')![11]).toBe('content filter tripped');
  });

  it('--json gives the full data with totals that add up', async () => {
    const result = await runInProcess(['traces', 'get', CHAT_TRACE.id, '--json'], { env: envFor(legacy) });
    const json = JSON.parse(result.stdout);
    expect(json.source).toBe('traces');
    expect(json.observations).toHaveLength(6);
    expect(json.scores).toHaveLength(1);
    expect(json.totals.cost).toBeCloseTo(CHAT_COST, 12);
    expect(json.totals.cost).toBeCloseTo(json.totalCost, 12);
    expect(json.totals).toMatchObject({ observations: 6, errors: 1, warnings: 1, tokens: { input: 1600, output: 120, total: 1720 }, latencySeconds: 2.5 });
    expect(json.input).toEqual(CHAT_TRACE.input);
  });

  it('--io shows inputs and outputs whole when piped, cut to the width on a terminal', async () => {
    const piped = await llmobs(['traces', 'get', CHAT_TRACE.id, '--io'], { env: envFor(legacy) });
    const row = piped.stdout.split('\n').find((l) => l.includes('\tobs-llm-1\t'))!.split('\t');
    expect(JSON.parse(row[12]!)).toEqual(CHAT_OBSERVATIONS[2]!.input);
    expect(row[13]).toBe('The capital of France is Paris.');

    const tty = await runInProcess(['traces', 'get', CHAT_TRACE.id, '--io'], { env: { ...envFor(legacy), FORCE_COLOR: '0' }, tty: true });
    const lines = tty.stdout.split('\n');
    expect(lines.some((l) => /^OBSERVATION\s+MODEL\s+LEVEL\s+START\s+DURATION\s+TOKENS\s+COST\s+STATUS$/.test(l))).toBe(true);
    expect(lines.some((l) => /^├─ GENERATION draft-answer\s+gpt-4o\s+DEFAULT\s+\+310 ms\s+1\.40 s\s+1,200 → 80\s+\$0\.\d+$/.test(l))).toBe(true);
    expect(lines.some((l) => /^│  └─ TOOL lookup .*WARNING.* slow lookup$/.test(l))).toBe(true);
    const input = lines.find((l) => l.includes('input  [{"role":"system"'))!;
    expect(input.length).toBeLessThanOrEqual(120);
    expect(input.endsWith('…')).toBe(true);
  });

  it('says that ingestion is asynchronous when the trace is not there, and --wait asks until it is', async () => {
    const missing = await runInProcess(['traces', 'get', 'trace-late'], { env: envFor(legacy) });
    expect(missing.exitCode).toBe(8);
    expect(missing.stderr).toContain('trace trace-late not found');
    expect(missing.stderr).toContain('--wait 30');

    // The trace arrives between the first and the second time it is asked for.
    let asked = 0;
    const arrive = () => late.addTrace({ ...CHAT_TRACE, id: 'trace-late' }, CHAT_OBSERVATIONS.map((o) => ({ ...o, traceId: 'trace-late' })));
    const late: FakeDataServer = await startFakeDataServer({ fault: ({ path }) => (path === '/api/public/traces/trace-late' && ++asked === 2 ? (arrive(), undefined) : undefined) });
    try {
      const waited = await llmobs(['traces', 'get', 'trace-late', '--wait', '20', '--json'], { env: envFor(late) });
      expect(waited.exitCode).toBe(0);
      expect(JSON.parse(waited.stdout).observations).toHaveLength(6);
      expect(late.requests.filter((r) => r.path === '/api/public/traces/trace-late')).toHaveLength(2);
      expect(late.contractIssues).toEqual([]);
    } finally {
      await late.close();
    }
  });

  it('reads the trace from v2 observations where the legacy route answers with the v4 message', async () => {
    const result = await llmobs(['traces', 'get', CHAT_TRACE.id, '--json', '--verbose'], { env: envFor(cloud) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(V4_MESSAGE);
    const json = JSON.parse(result.stdout);
    expect(json.source).toBe('observations-v2');
    expect(json).toMatchObject({ id: CHAT_TRACE.id, name: 'chat-request', userId: 'user-42', sessionId: 'session-7', tags: ['beta', 'eu'], release: '1.4.0' });
    // The same totals from numbers sent as strings.
    expect(json.totals.cost).toBeCloseTo(CHAT_COST, 12);
    expect(json.totals).toMatchObject({ observations: 6, tokens: { input: 1600, output: 120, total: 1720 }, latencySeconds: 2.5 });
    expect(json.scores.map((s: { name: string }) => s.name)).toEqual(['helpfulness']);
    const fields = new URL(cloud.requests.find((r) => r.path.startsWith('/api/public/v2/observations'))!.path, 'http://x').searchParams.get('fields');
    expect(fields).toBe('core,basic,time,model,usage,metrics,prompt,trace_context');

    const tree = await llmobs(['traces', 'get', CHAT_TRACE.id, '--io'], { env: envFor(cloud) });
    expect(tree.stdout.split('\n').filter((l) => /^\d\t/.test(l)).map((l) => l.split('\t')[1])).toEqual(['obs-root', 'obs-retrieve', 'obs-llm-1', 'obs-tool', 'obs-llm-2', 'obs-fail']);
    expect(tree.stderr).toContain('Read from the v2 observations API');
  });

  it('gives the server\'s own answer when neither route is there, and not found when no observation has the id', async () => {
    const none = await llmobs(['traces', 'get', CHAT_TRACE.id], { env: envFor(noV2) });
    expect(none.exitCode).toBe(8);
    expect(none.stderr).toContain('Langfuse v4 events_only mode');
    const missing = await runInProcess(['traces', 'get', 'nope'], { env: envFor(cloud) });
    expect(missing.exitCode).toBe(8);
    expect(missing.stderr).toContain('no observation has this trace id');
  });
});

describe('traces list', () => {
  it('sends the API\'s filters and shows at most --limit traces, across pages', async () => {
    const before = legacy.requests.length;
    const result = await llmobs(['traces', 'list', '--limit', '130', '--name', 'even', '--user', 'u0', '--tag', 'five', '--from', '2026-05-01', '--to', '2026-05-02T00:00:00Z', '--environment', 'production', '--environment', 'default'], { env: envFor(legacy) });
    expect(result.exitCode).toBe(0);
    const sent = legacy.requests.slice(before).map((r) => new URL(r.path, 'http://x').searchParams);
    expect(sent[0]!.toString()).toBe('name=even&userId=u0&tags=five&environment=production&environment=default&fromTimestamp=2026-05-01T00%3A00%3A00.000Z&toTimestamp=2026-05-02T00%3A00%3A00.000Z&fields=core%2Cobservations%2Cscores%2Cmetrics&page=1&limit=100');
    // Every 30th of 120 traces is even, user u0 and tagged five: 0, 30, 60, 90.
    expect(result.stdout.trimEnd().split('\n').map((l) => l.split('\t').at(-1))).toEqual(['trace-090', 'trace-060', 'trace-030', 'trace-000']);

    const paged = await runInProcess(['traces', 'list', '--limit', '105', '--json'], { env: envFor(legacy) });
    expect(JSON.parse(paged.stdout).data).toHaveLength(105);
    expect(JSON.parse(paged.stdout).meta).toMatchObject({ page: 1, limit: 100, totalItems: 121 });
    expect(paged.stderr).toContain('Showing 105 of 121 traces');
    const all = await runInProcess(['traces', 'list', '--all', '--json'], { env: envFor(legacy) });
    expect(JSON.parse(all.stdout).data).toHaveLength(121);
  });

  it('shows cost and latency per trace', async () => {
    const result = await llmobs(['traces', 'list', '--user', 'user-42'], { env: envFor(legacy) });
    expect(result.stdout.trimEnd().split('\t')).toEqual(['2026-05-02 10:00:00Z', 'chat-request', 'user-42', 'session-7', 'beta,eu', '6', expect.stringMatching(/^\$0\.\d+$/), '2.50 s', CHAT_TRACE.id]);
  });

  it('lists root observations where the legacy list is gone, with the filters applied', async () => {
    const result = await llmobs(['traces', 'list', '--limit', '3', '--name', 'odd'], { env: envFor(cloud) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((l) => l.split('\t').at(-1))).toEqual(['trace-119', 'trace-117', 'trace-115']);
    expect(result.stderr).toContain('root observations');
  });

  it('refuses bad options before sending anything', async () => {
    const before = legacy.requests.length;
    for (const args of [['--limit', '0'], ['--from', 'yesterday'], ['--order-by', 'cost.desc'], ['--all', '--limit', '5'], ['--page', '2', '--limit', '500'], ['--from', '2026-05-02', '--to', '2026-05-01']]) {
      const result = await runInProcess(['traces', 'list', ...args], { env: envFor(legacy) });
      expect(result.exitCode, args.join(' ')).toBe(2);
    }
    expect(legacy.requests.length).toBe(before);
  });
});

describe('observations list', () => {
  it('shows the newest 50 by default, --limit across pages, filters as query parameters', async () => {
    const server = await startFakeDataServer();
    server.addObservations(syntheticGenerations(2200));
    try {
      const env = envFor(server);
      const table = await llmobs(['observations', 'list'], { env });
      expect(table.stdout.trimEnd().split('\n')).toHaveLength(50);
      expect(table.stdout.split('\n')[0]!.split('\t')).toEqual(['2026-05-02 12:39:00Z', 'GENERATION', 'llm-call', 'gpt-4o', 'DEFAULT', '160/48', expect.stringMatching(/^\$0\.\d+$/), 'trace-0734', 'gen-2200']);
      const before = server.requests.length;
      const many = await llmobs(['observations', 'list', '--limit', '2100', '--format', 'jsonl', '--fields', 'id', '--type', 'GENERATION', '--level', 'DEFAULT', '--user', 'user-1'], { env });
      const lines = many.stdout.trimEnd().split('\n');
      expect(lines.length).toBe(Math.ceil(2200 / 7));
      expect(JSON.parse(lines[0]!)).toEqual({ id: expect.stringMatching(/^gen-\d+$/) });
      const sent = server.requests.slice(before).map((r) => new URL(r.path, 'http://x').searchParams);
      expect(sent[0]!.get('limit')).toBe('1000');
      expect([sent[0]!.get('type'), sent[0]!.get('level'), sent[0]!.get('userId'), sent[0]!.get('fields')]).toEqual(['GENERATION', 'DEFAULT', 'user-1', 'core']);
      const json = JSON.parse((await runInProcess(['observations', 'list', '--limit', '3', '--json', '--fields', 'id,totalCost'], { env })).stdout);
      expect(json.data).toHaveLength(3);
      expect(Object.keys(json.data[0])).toEqual(['id', 'totalCost']);
      expect(typeof json.meta.cursor).toBe('string');
      expect(server.contractIssues).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
