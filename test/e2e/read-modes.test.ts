// Every data command against `llmobs server` in Langfuse v4's three write modes, over one store:
// seeded once in dual (traces through the batch route, one over OTLP as the v4 SDKs send them),
// the data directory then opened by one server per mode. Each command reads the same data in
// each mode, on the routes the mode has (web/src/features/public-api/server/
// createAuthedProjectAPIRoute.ts removes the v3 reads in events_only; v2/observations/index.ts
// and v2/metrics.ts refuse in legacy); what a mode cannot give is said. Run in process: the
// commands' own e2e files run the built binary.
import { cpSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteMode } from '../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { BIN } from '../helpers/bin.js';
import { isolatedEnv, runInProcess, tempDir } from '../helpers/cli.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';

const MODES: WriteMode[] = ['legacy', 'dual', 'events_only'];
const T0 = Date.parse('2026-11-02T09:00:00.000Z');
const at = (ms: number, base = T0) => new Date(base + ms).toISOString();
const H0 = Date.parse('2026-10-05T08:00:00.000Z');
/** Observations of the large trace: three pages of the v2 list, 25 of the v1 list. */
const LARGE = 2500;

function batch(): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [
    { id: 'e-a', type: 'trace-create', timestamp: at(0), body: { id: 'trace-a', timestamp: at(0), name: 'checkout', userId: 'user-1', sessionId: 'session-1', tags: ['beta'], release: '2.0', input: { question: 'price?' }, output: 'ten' } },
    { id: 'e-a-root', type: 'span-create', timestamp: at(0), body: { id: 'a-root', traceId: 'trace-a', name: 'handle', startTime: at(0), endTime: at(3000), input: 'root in', output: 'root out' } },
    { id: 'e-a-llm', type: 'generation-create', timestamp: at(0), body: { id: 'a-llm', traceId: 'trace-a', parentObservationId: 'a-root', name: 'answer', model: 'gpt-4o', startTime: at(500), endTime: at(2500), usageDetails: { input: 1000, output: 200 }, input: [{ role: 'user', content: 'price?' }], output: 'ten' } },
    { id: 'e-a-guard', type: 'event-create', timestamp: at(0), body: { id: 'a-guard', traceId: 'trace-a', parentObservationId: 'a-root', name: 'guard', startTime: at(2800), level: 'WARNING', statusMessage: 'slow' } },
    { id: 'e-a-score', type: 'score-create', timestamp: at(0), body: { id: 'a-score', traceId: 'trace-a', name: 'quality', value: 0.8 } },
    { id: 'e-h', type: 'trace-create', timestamp: at(0, H0), body: { id: 'trace-h', timestamp: at(0, H0), name: 'agent-run' } },
    { id: 'e-h-root', type: 'span-create', timestamp: at(0, H0), body: { id: 'h-root', traceId: 'trace-h', name: 'agent', startTime: at(0, H0), endTime: at(600_000, H0) } },
  ];
  for (let i = 1; i < LARGE; i++) {
    const id = `h-${String(i).padStart(4, '0')}`;
    events.push({ id: `e-${id}`, type: 'event-create', timestamp: at(0, H0), body: { id, traceId: 'trace-h', parentObservationId: 'h-root', name: 'step', startTime: at(i * 100, H0) } });
  }
  return events;
}

const attr = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
const nanos = (ms: number) => `${BigInt(T0 + 86_400_000 + ms) * 1_000_000n}`;
const OTLP_TRACE = '0b'.repeat(16);
const otlp = {
  resourceSpans: [
    {
      resource: { attributes: [attr('service.name', 'shop')] },
      scopeSpans: [
        {
          scope: { name: 'app' },
          spans: [
            { traceId: OTLP_TRACE, spanId: '1b'.repeat(8), name: 'otel-request', startTimeUnixNano: nanos(0), endTimeUnixNano: nanos(1000), attributes: [attr('langfuse.user.id', 'user-2'), attr('langfuse.session.id', 'session-2'), attr('langfuse.observation.input', 'hello'), attr('langfuse.observation.output', 'world')] },
            { traceId: OTLP_TRACE, spanId: '2b'.repeat(8), parentSpanId: '1b'.repeat(8), name: 'llm', startTimeUnixNano: nanos(200), endTimeUnixNano: nanos(800), attributes: [attr('langfuse.observation.type', 'generation'), attr('gen_ai.request.model', 'gpt-4o-mini'), attr('gen_ai.usage.input_tokens', 50), attr('gen_ai.usage.output_tokens', 10)] },
          ],
        },
      ],
    },
  ],
};

const servers = {} as Record<WriteMode, RunningServer>;
const envs = {} as Record<WriteMode, Record<string, string | undefined>>;
const run = (mode: WriteMode, argv: string[], options: { env?: Record<string, string | undefined> } = {}) => runInProcess(argv, { env: options.env ?? envs[mode] });

beforeAll(async () => {
  const seedDir = join(tempDir(), 'seed');
  const seeder = await startServer({ port: 0, dataDir: seedDir, writeMode: 'dual' });
  const auth = `Basic ${Buffer.from(`${seeder.keys.publicKey}:${seeder.keys.secretKey}`).toString('base64')}`;
  const post = async (path: string, body: unknown) => {
    const answer = await fetch(seeder.url + path, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(answer.status).toBeLessThan(300);
    return (await answer.json()) as { errors?: unknown[] };
  };
  expect((await post('/api/public/ingestion', { batch: batch() })).errors).toEqual([]);
  await post('/api/public/otel/v1/traces', otlp);
  await seeder.close();
  for (const mode of MODES) {
    const dir = join(tempDir(), mode);
    cpSync(seedDir, dir, { recursive: true });
    servers[mode] = await startServer({ port: 0, dataDir: dir, writeMode: mode });
    envs[mode] = isolatedEnv({ LANGFUSE_HOST: servers[mode].url, LANGFUSE_PUBLIC_KEY: servers[mode].keys.publicKey, LANGFUSE_SECRET_KEY: servers[mode].keys.secretKey, LLMOBS_RETRY_BASE_MS: '1' });
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(MODES.map((mode) => servers[mode]?.close()));
});

/** The same command in each mode: its results, checked to have exited 0. */
async function inEachMode(argv: string[]) {
  const results = {} as Record<WriteMode, Awaited<ReturnType<typeof runInProcess>>>;
  for (const mode of MODES) {
    results[mode] = await run(mode, argv);
    expect(results[mode].exitCode, `${mode}: ${results[mode].stderr}`).toBe(0);
  }
  return results;
}

describe('traces', () => {
  it('traces list: the same rows (cost, latency, observation count) in every mode', async () => {
    const results = await inEachMode(['traces', 'list']);
    const rows = results.legacy.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.map((row) => [row[1], row[5], row.at(-1)])).toEqual([
      ['otel-request', '2', OTLP_TRACE],
      ['checkout', '3', 'trace-a'],
      ['agent-run', String(LARGE), 'trace-h'],
    ]);
    expect(rows[1]!.slice(2, 8)).toEqual(['user-1', 'session-1', 'beta', '3', expect.stringMatching(/^\$0\.00\d+$/), '3.00 s']);
    expect(results.dual.stdout).toBe(results.legacy.stdout);
    // A trace without costs: the v3 list sums to 0 ($0.00), and so does the Metrics API, whose
    // total cost of an observation without one is 0 (cost_details['total'] of the events table,
    // eventsObservationsView in dataModel.ts).
    expect(results.events_only.stdout).toBe(results.legacy.stdout);
    // What v4 cannot give as the v3 list does, said once.
    expect(results.events_only.stderr.match(/LATENCY is each trace's longest observation/g)).toHaveLength(1);
    expect(results.legacy.stderr).toBe('');
  });

  it('traces get: the same tree and totals in every mode; the trace\'s input is its root observation\'s in v4', async () => {
    const results = await inEachMode(['traces', 'get', 'trace-a']);
    expect(results.dual.stdout).toBe(results.legacy.stdout);
    expect(results.events_only.stdout).toBe(results.legacy.stdout);
    expect(results.legacy.stdout).toMatch(/^totals\t\$0\.00\d+ · 1,000 in \/ 200 out \/ 1,200 tokens · 3\.00 s · 3 observations \(1 EVENT, 1 GENERATION, 1 SPAN\) · 1 WARNING$/m);
    expect(results.legacy.stdout).toContain('scores\tquality=0.8 (API)');

    const json = {} as Record<WriteMode, Record<string, any>>;
    for (const mode of MODES) json[mode] = JSON.parse((await run(mode, ['traces', 'get', 'trace-a', '--json'])).stdout);
    for (const mode of MODES) {
      // The v3 route's own total (serverCost) is the only number v4 does not send.
      expect(json[mode]).toMatchObject({ id: 'trace-a', name: 'checkout', userId: 'user-1', sessionId: 'session-1', tags: ['beta'], release: '2.0', totals: { ...json.legacy.totals, serverCost: mode === 'events_only' ? null : json.legacy.totals.serverCost } });
      expect(json[mode].observations.map((o: { id: string }) => o.id).sort()).toEqual(['a-guard', 'a-llm', 'a-root']);
    }
    expect(json.legacy.source).toBe('traces');
    expect(json.events_only.source).toBe('observations-v2');
    // Langfuse v4 has no trace rows: a trace's input and output are its root observation's
    // (event-query-builder.ts, EVENTS_AGGREGATION_FIELDS). The v3 routes give the trace's own.
    expect(json.legacy.input).toEqual({ question: 'price?' });
    expect(json.events_only).toMatchObject({ input: 'root in', output: 'root out', latency: 3, rootObservationId: 'a-root' });

    // Over OTLP, the trace's input is its root span's in every mode.
    const otel = await inEachMode(['traces', 'get', OTLP_TRACE, '--io']);
    expect(otel.legacy.stdout).toContain('input\thello\noutput\tworld\n');
    expect(otel.events_only.stdout).toBe(otel.legacy.stdout);
  });

  it('--verbose says which route was chosen, and why', async () => {
    const result = await run('events_only', ['traces', 'get', 'trace-a', '--verbose']);
    expect(result.stderr).toMatch(/read route for traces: the v2 observations API \(GET \/api\/public\/v2\/observations\) \(cached \S+: the v3 trace routes \(GET \/api\/public\/traces\) answered 404 "This endpoint is not available/);
  });
});

describe('a trace of many observations', () => {
  it('is read page by page where the v3 answer is too large, the same tree in every mode', async () => {
    const small = (mode: WriteMode) => ({ ...envs[mode], LLMOBS_MAX_RESPONSE_MB: '1' });
    const trees = {} as Record<WriteMode, string>;
    for (const mode of MODES) {
      const result = await run(mode, ['traces', 'get', 'trace-h', '--verbose'], { env: small(mode) });
      expect(result.exitCode, `${mode}: ${result.stderr.slice(-500)}`).toBe(0);
      trees[mode] = result.stdout;
      const pages = result.stderr.match(mode === 'legacy' ? /→ GET \S+\/api\/public\/observations\?/g : /→ GET \S+\/api\/public\/v2\/observations\?/g) ?? [];
      // legacy: 25 pages of the v1 list; dual (the v3 answer too large) and events_only: 3 of the v2 list.
      expect(pages.length, mode).toBe(mode === 'legacy' ? 25 : 3);
      if (mode !== 'events_only') expect(result.stderr).toContain("reading the trace's own fields, then its observations page by page");
    }
    const rows = trees.legacy.split('\n').filter((line) => /^\d\t/.test(line));
    expect(rows).toHaveLength(LARGE);
    expect(rows[0]!.split('\t').slice(0, 2)).toEqual(['0', 'h-root']);
    expect(rows[1]!.split('\t').slice(0, 2)).toEqual(['1', 'h-0001']);
    expect(trees.dual).toBe(trees.legacy);
    expect(trees.events_only).toBe(trees.legacy);
  });

  it('--max-observations stops with exit 5: nothing printed for the tree, a whole JSON document that says so', async () => {
    for (const mode of ['legacy', 'events_only'] as const) {
      const tree = await run(mode, ['traces', 'get', 'trace-h', '--max-observations', '1500']);
      expect(tree.exitCode, mode).toBe(5);
      expect(tree.stdout).toBe('');
      expect(tree.stderr).toContain('trace trace-h has more than 1,500 observations (--max-observations); stopped');
      expect(tree.stderr).toContain('llmobs observations export --trace trace-h');
    }
    const json = await run('events_only', ['traces', 'get', 'trace-h', '--json', '--max-observations', '1500']);
    expect(json.exitCode).toBe(5);
    const document = JSON.parse(json.stdout);
    expect(document.observations).toHaveLength(1500);
    expect(document.incomplete).toMatch(/more than 1,500 observations/);
    expect(JSON.parse(json.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ code: 'too_many_observations', exitCode: 5 });
  });
});

describe('observations', () => {
  const FIELDS = ['id', 'traceId', 'parentObservationId', 'type', 'name', 'level', 'statusMessage', 'startTime', 'endTime', 'providedModelName', 'usageDetails', 'costDetails', 'totalCost', 'input', 'output'];
  const pick = (o: Record<string, unknown>) => Object.fromEntries(FIELDS.map((f) => [f, o[f]]));

  it('observations list: the same observations in every mode; legacy reads the v1 list and says what it lacks', async () => {
    const results = await inEachMode(['observations', 'list', '--from', '2026-11-01', '--all', '--json', '--fields', 'core,basic,model,usage,io']);
    const data = (mode: WriteMode) => (JSON.parse(results[mode].stdout).data as Record<string, unknown>[]).map(pick);
    expect(data('legacy').map((o) => o.id)).toEqual(['2b2b2b2b2b2b2b2b', '1b1b1b1b1b1b1b1b', 'a-guard', 'a-llm', 'a-root']);
    expect(data('dual')).toEqual(data('legacy'));
    expect(data('events_only')).toEqual(data('legacy'));
    expect(results.legacy.stderr).toContain("Read from the v1 observations API (this server has no v2 observations: Langfuse's legacy write mode); it does not give userId, sessionId, bookmarked, public, written as null");
    expect(JSON.parse(results.events_only.stdout).data[0].userId).toBe('user-2');
    expect(JSON.parse(results.legacy.stdout).data[0].userId).toBeNull();
    const session = await run('legacy', ['observations', 'list', '--session', 'session-1']);
    expect(session.exitCode).toBe(2);
    expect(session.stderr).toContain('--session needs the v2 observations API');
  });

  it('observations export, cut by a failing page, then --resume: the same file in every mode', async () => {
    const files = {} as Record<WriteMode, string>;
    for (const mode of MODES) {
      let pages = 0;
      const proxy = await startFaultProxy(servers[mode].url, (request) => (/\/observations\?/.test(request.path) && ++pages === 3 ? { kind: 'answer', status: 500 } : { kind: 'pass' }));
      try {
        const output = join(tempDir(), 'nov.jsonl');
        const env = { ...envs[mode], LANGFUSE_HOST: proxy.url };
        const args = ['observations', 'export', '--from', '2026-11-01', '--page-size', '2', '--output', output];
        const cut = await run(mode, [...args, '--retries', '0'], { env });
        expect(cut.exitCode, mode).toBe(5);
        expect(cut.stderr).toContain('--resume');
        const resumed = await run(mode, ['observations', 'export', '--output', output, '--resume'], { env });
        expect(resumed.exitCode, `${mode}: ${resumed.stderr}`).toBe(0);
        expect(resumed.stderr).toContain('Resumed and finished 5 observations');
        files[mode] = readFileSync(output, 'utf8');
      } finally {
        await proxy.close();
      }
    }
    const lines = (mode: WriteMode) => files[mode].trimEnd().split('\n').map((line) => pick(JSON.parse(line)));
    expect(lines('legacy').map((o) => o.id)).toEqual(['2b2b2b2b2b2b2b2b', '1b1b1b1b1b1b1b1b', 'a-guard', 'a-llm', 'a-root']);
    expect(lines('dual')).toEqual(lines('legacy'));
    expect(lines('events_only')).toEqual(lines('legacy'));
  });
});

describe('cost', () => {
  // Langfuse answers the Metrics API v1 in legacy mode (metrics/index.ts) and v2 in the v4 write
  // modes (v2/metrics.ts): the same query over the same observations gives the same report.
  it('cost report (and --budget): v1 metrics in legacy, v2 in dual and events_only, the same report', async () => {
    for (const by of ['model', 'name,type', 'trace,day']) {
      const results = await inEachMode(['cost', 'report', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-15T00:00:00Z', '--by', by, '--json', '--no-cache']);
      const report = JSON.parse(results.legacy.stdout);
      expect(JSON.parse(results.dual.stdout), by).toEqual(report);
      expect(JSON.parse(results.events_only.stdout), by).toEqual(report);
      if (by === 'model') expect(report.groups.map((g: { group: { model: string } }) => g.group.model).sort()).toEqual(['gpt-4o', 'gpt-4o-mini']);
      expect(report.total.count, by).toBe(2);
    }
    const verbose = await run('legacy', ['cost', 'report', '--month', '2026-11', '--no-cache', '--verbose']);
    expect(verbose.stderr).toContain('/api/public/metrics?');
    for (const mode of MODES) {
      const over = await run(mode, ['cost', 'report', '--month', '2026-11', '--budget', '0.001', '--no-cache']);
      expect(over.exitCode, mode).toBe(9);
    }
  });

  it('cost recompute from the server: the same generations in every mode', async () => {
    const results = await inEachMode(['cost', 'recompute', '--month', '2026-11', '--offline', '--json']);
    const report = JSON.parse(results.legacy.stdout);
    expect(report.map((r: { model: string; generations: number }) => [r.model, r.generations])).toEqual(expect.arrayContaining([['gpt-4o', 1], ['gpt-4o-mini', 1]]));
    expect(JSON.parse(results.dual.stdout)).toEqual(report);
    expect(JSON.parse(results.events_only.stdout)).toEqual(report);
  });
});

describe('the route choice', () => {
  it('is kept per server: the second run makes no failed request, and a wrong choice is put right in the same run', async () => {
    let target = servers.events_only.url;
    const proxy = await startFaultProxy(() => target, () => ({ kind: 'pass' }));
    // The copies of the store hold the same keys: one profile reaches every server through the proxy.
    const env = isolatedEnv({ LANGFUSE_HOST: proxy.url, LANGFUSE_PUBLIC_KEY: servers.legacy.keys.publicKey, LANGFUSE_SECRET_KEY: servers.legacy.keys.secretKey });
    const step = async (args: string[]) => {
      const before = proxy.seen.length;
      const result = await runInProcess(args, { env });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      return { ...result, failed: proxy.seen.slice(before).filter((r) => r.status === 404).map((r) => r.path.split('?')[0]) };
    };
    try {
      const first = await step(['traces', 'list']);
      expect(first.failed).toEqual(['/api/public/traces']);
      const second = await step(['traces', 'list']);
      expect(second.failed).toEqual([]);
      expect(second.stdout).toBe(first.stdout);
      // The events_only answer told the other reads too.
      expect((await step(['observations', 'list'])).failed).toEqual([]);
      expect((await step(['cost', 'report', '--month', '2026-11'])).failed).toEqual([]);

      // The server is now a legacy one (downgraded): the cached choice fails once, the other answers.
      target = servers.legacy.url;
      const downgraded = await step(['traces', 'list']);
      expect(downgraded.failed).toEqual(['/api/public/v2/observations']);
      expect(downgraded.stdout).toBe(first.stdout);
      expect((await step(['traces', 'list'])).failed).toEqual([]);
      expect((await step(['observations', 'list'])).failed).toEqual([]);

      // And upgraded to events_only again.
      target = servers.events_only.url;
      const upgraded = await step(['observations', 'list', '--verbose']);
      expect(upgraded.failed).toEqual(['/api/public/observations']);
      expect(upgraded.stderr).toContain('read route for observations: the v1 observations API (GET /api/public/observations) answered 404');
      expect((await step(['traces', 'get', 'trace-a'])).failed).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('traces get --json (the built binary) writes the trace while its pages are still being read', async () => {
    const output = join(tempDir(), 'trace.json');
    let writtenBeforeLastPage = '';
    let pages = 0;
    const proxy = await startFaultProxy(servers.events_only.url, (request) => {
      // The pages, not the request for the root's input and output that follows them.
      if (request.path.startsWith('/api/public/v2/observations?traceId=trace-h') && !request.path.includes('isRootObservation') && ++pages === 3) writtenBeforeLastPage = readFileSync(output, 'utf8');
      return { kind: 'pass' };
    });
    try {
      const env = { ...envs.events_only, LANGFUSE_HOST: proxy.url };
      const result = await execa(process.execPath, [BIN, 'traces', 'get', 'trace-h', '--json'], { env, extendEnv: false, reject: false, stdout: { file: output } });
      expect(result.exitCode, String(result.stderr)).toBe(0);
    } finally {
      await proxy.close();
    }
    expect(pages).toBe(3);
    // The first page of observations at least was on stdout before the third was asked for (the
    // second may still be on its way through the pipe).
    expect(writtenBeforeLastPage.split('\n    {').length - 1).toBeGreaterThanOrEqual(1000);
    const document = JSON.parse(readFileSync(output, 'utf8'));
    expect(document.observations).toHaveLength(LARGE);
    expect(document).toMatchObject({ name: 'agent-run', totals: { observations: LARGE, latencySeconds: 600 }, source: 'observations-v2' });
  });
});
