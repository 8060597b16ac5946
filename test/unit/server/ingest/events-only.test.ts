// POST /api/public/ingestion and the OTLP route in each write mode. events_only refuses trace and
// observation events one by one and takes the rest of the batch (web/src/pages/api/public/ingestion.ts,
// filterBatchForEventsOnly); legacy and dual take every event type; the OTLP route takes spans in
// every mode (its processor writes where the mode writes). The store is one in every mode, so what
// any mode took reads back in another through the routes that mode has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitForEventsOnly } from '../../../../src/server/ingest/events-only.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { tempDir } from '../../../helpers/cli.js';
import { apiCaller } from '../../../helpers/server-api.js';

const REMEDIATION =
  'Upgrade the client or integration to a v4-compatible SDK or OTLP ingestion path. As a temporary migration bridge, set LANGFUSE_MIGRATION_V4_WRITE_MODE=dual on both the web and worker services and redeploy. Docs: https://langfuse.com/self-hosting/upgrade/upgrade-guides/upgrade-v3-to-v4';
const refused = (id: string, type: string) => ({
  id,
  status: 400,
  message: 'Event type not accepted',
  error: `Event type "${type}" is not accepted by /api/public/ingestion when LANGFUSE_MIGRATION_V4_WRITE_MODE is events_only. This endpoint only accepts score and log events. ${REMEDIATION}`,
});

const at = '2026-03-01T10:00:00.000Z';
const event = (id: string, type: string, body: Record<string, unknown>) => ({ id, type, timestamp: at, body });

describe('splitForEventsOnly', () => {
  it('keeps score and log events, refuses the rest with their id, or "unknown"', () => {
    const split = splitForEventsOnly([
      event('s', 'score-create', {}),
      event('l', 'sdk-log', {}),
      event('t', 'trace-create', {}),
      event('g', 'generation-update', {}),
      { id: 7, type: 'span-create' },
      { id: 'x' },
      'text',
      null,
    ]);
    expect(split.accepted.map((e) => (e as { id: string }).id)).toEqual(['s', 'l']);
    expect(split.rejected).toEqual([
      refused('t', 'trace-create'),
      refused('g', 'generation-update'),
      refused('unknown', 'span-create'),
      refused('x', 'unknown'),
      refused('unknown', 'unknown'),
      refused('unknown', 'unknown'),
    ]);
  });
});

describe('one data directory across write modes', () => {
  const dir = tempDir();
  let server: RunningServer;
  const call = apiCaller(() => server);
  const start = async (writeMode: 'legacy' | 'dual' | 'events_only') => {
    await server?.close();
    server = await startServer({ port: 0, dataDir: dir, writeMode });
  };
  beforeAll(() => start('events_only'));
  afterAll(() => server.close());

  it('events_only: scores and logs in, traces and observations refused after the other errors; spans over OTLP', async () => {
    const answer = await call('POST', '/api/public/ingestion', {
      batch: [
        event('e-trace', 'trace-create', { id: 'batch-trace', name: 'refused' }),
        event('e-gen', 'generation-create', { id: 'batch-gen', traceId: 'batch-trace', model: 'gpt-4o' }),
        event('e-score', 'score-create', { id: 'score-1', traceId: 'otel-trace', name: 'quality', value: 0.5 }),
        event('e-log', 'sdk-log', { log: 'hello' }),
        event('e-bad-score', 'score-create', { id: 'score-2', name: 'no subject' }),
      ],
    }, { unchecked: true });
    expect(answer.status).toBe(207);
    // SDK logs pass the filter and are dropped by the batch processing, as in the other modes.
    expect(answer.body.successes).toEqual([{ id: 'e-score', status: 201 }]);
    expect(answer.body.errors.map((e: { id: string }) => e.id)).toEqual(['e-bad-score', 'e-trace', 'e-gen']);
    expect(answer.body.errors.slice(1)).toEqual([refused('e-trace', 'trace-create'), refused('e-gen', 'generation-create')]);

    // Before the scope check: a public key alone gets the refusal, not a 401.
    const scoped = await call('POST', '/api/public/ingestion', { batch: [event('e-scoped', 'trace-create', { id: 'x' })] }, { auth: `Bearer ${server.keys.publicKey}` });
    expect(scoped.body).toEqual({ successes: [], errors: [refused('e-scoped', 'trace-create')] });

    const span = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'otel-span', startTimeUnixNano: '1772359200000000000', endTimeUnixNano: '1772359201000000000' };
    const otlp = await call('POST', '/api/public/otel/v1/traces', { resourceSpans: [{ scopeSpans: [{ scope: { name: 'app' }, spans: [span] }] }] }, { unchecked: true });
    expect(otlp).toEqual({ status: 200, body: {} });
    const v2 = await call('GET', '/api/public/v2/observations');
    expect(v2.body.data.map((o: { id: string }) => o.id)).toEqual(['b7ad6b7169203331']);
    expect((await call('GET', '/api/public/v3/scores')).body.data.map((s: { id: string }) => s.id)).toEqual(['score-1']);
  });

  it('dual: every event type; the v1 and v2 reads both see what events_only took', async () => {
    await start('dual');
    const answer = await call('POST', '/api/public/ingestion', {
      batch: [event('e-trace', 'trace-create', { id: 'batch-trace', name: 'taken' }), event('e-gen', 'generation-create', { id: 'batch-gen', traceId: 'batch-trace', model: 'gpt-4o', startTime: at })],
    });
    expect(answer.body).toEqual({ successes: [{ id: 'e-trace', status: 201 }, { id: 'e-gen', status: 201 }], errors: [] });
    expect((await call('GET', '/api/public/traces/batch-trace')).body.name).toBe('taken');
    expect((await call('GET', '/api/public/observations/b7ad6b7169203331')).status).toBe(200);
    const v2 = await call('GET', '/api/public/v2/observations');
    expect(v2.body.data.map((o: { id: string }) => o.id).sort()).toEqual(['b7ad6b7169203331', 'batch-gen']);
  });

  it('legacy: every event type, the v1 reads; events_only again: the v2 read sees it all', async () => {
    await start('legacy');
    const answer = await call('POST', '/api/public/ingestion', { batch: [event('e-span', 'span-create', { id: 'legacy-span', traceId: 'batch-trace', startTime: at })] });
    expect(answer.body.errors).toEqual([]);
    expect((await call('GET', '/api/public/observations?traceId=batch-trace')).body.meta.totalItems).toBe(2);
    await start('events_only');
    const v2 = await call('GET', '/api/public/v2/observations');
    expect(v2.body.data.map((o: { id: string }) => o.id).sort()).toEqual(['b7ad6b7169203331', 'batch-gen', 'legacy-span']);
  });
});
