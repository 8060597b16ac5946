// What the ingestion routes answer, and store, for events and exports that look wrong, in each
// write mode. Each expectation is what Langfuse's source does, cited where it is checked; several
// look accidental (docs/local-server.md, "Followed although it looks accidental").
import { describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { Store } from '../../../../src/server/store/index.js';
import type { WriteMode } from '../../../../src/api/write-mode.js';
import { tempDir } from '../../../helpers/cli.js';
import { basicAuth } from '../../../helpers/server-api.js';

const at = '2026-03-01T10:00:00.000Z';
const event = (id: string, type: string, body: Record<string, unknown>) => ({ id, type, timestamp: at, body });

async function post(server: RunningServer, path: string, body: string | Buffer, contentType = 'application/json') {
  const response = await fetch(server.url + path, { method: 'POST', headers: { authorization: basicAuth(server), 'content-type': contentType }, body });
  const text = await response.text();
  return { status: response.status, body: text && contentType === 'application/json' ? JSON.parse(text) : text };
}

/** Runs `send` against a fresh server in `mode`, then opens its data directory and counts what it stored. */
async function storedAfter(mode: WriteMode, send: (server: RunningServer) => Promise<void>) {
  const dataDir = tempDir();
  const server = await startServer({ port: 0, dataDir, writeMode: mode });
  try {
    await send(server);
  } finally {
    await server.close();
  }
  const { store } = Store.open({ dataDir, now: () => new Date() });
  try {
    return store.read((tx) => ({
      traces: tx.traces.count(),
      observations: tx.observations.list({}, { limit: 100, offset: 0 }),
      scores: tx.scores.page({}, undefined, 100).length,
    }));
  } finally {
    store.close();
  }
}

const REFUSED = 'Event type not accepted';
const MODES: WriteMode[] = ['legacy', 'dual', 'events_only'];

describe.each(MODES)('POST /api/public/ingestion in %s', (mode) => {
  it('acknowledges events without a body id and stores nothing of them; sdk-log in neither list', async () => {
    let answer: { status: number; body: any } | undefined;
    const stored = await storedAfter(mode, async (server) => {
      answer = await post(
        server,
        '/api/public/ingestion',
        JSON.stringify({
          batch: [
            // The bodies whose id is optional in the ingestion schemas (packages/shared/src/server/ingestion/types.ts):
            // processEventBatch.ts groups events by body id and skips those without one, but still
            // lists every valid event in `successes`. No id is generated on this route.
            event('no-id-trace', 'trace-create', { name: 'anonymous' }),
            event('null-id-trace', 'trace-create', { id: null, name: 'anonymous' }),
            event('no-id-score', 'score-create', { name: 'quality', value: 1, traceId: 'some-trace' }),
            event('no-id-observation', 'observation-create', { type: 'SPAN', traceId: 'some-trace' }),
            event('no-id-update', 'observation-update', { type: 'SPAN', traceId: 'some-trace' }),
            // span-create and the other observation types require the id: a 400.
            event('no-id-span', 'span-create', { traceId: 'some-trace' }),
            // processEventBatch.ts drops sdk-log events after validation, before the answer is built.
            event('log', 'sdk-log', { log: 'hello' }),
          ],
        }),
      );
    });
    expect(answer!.status).toBe(207);
    if (mode === 'events_only') {
      // ingestion.ts, filterBatchForEventsOnly: only score and log events reach processEventBatch.
      expect(answer!.body.successes).toEqual([{ id: 'no-id-score', status: 201 }]);
      expect(answer!.body.errors.map((e: { id: string; message: string }) => [e.id, e.message])).toEqual([
        ['no-id-trace', REFUSED],
        ['null-id-trace', REFUSED],
        ['no-id-observation', REFUSED],
        ['no-id-update', REFUSED],
        ['no-id-span', REFUSED],
      ]);
    } else {
      expect(answer!.body.successes.map((s: { id: string }) => s.id)).toEqual(['no-id-trace', 'null-id-trace', 'no-id-score', 'no-id-observation', 'no-id-update']);
      expect(answer!.body.errors).toEqual([{ id: 'no-id-span', status: 400, message: 'Invalid request data', error: expect.stringContaining('"path": [\n      "body",\n      "id"\n    ]') }]);
    }
    expect(stored).toEqual({ traces: 0, observations: [], scores: 0 });
  });
});

const span = (traceId: string, spanId: string, startTimeUnixNano: unknown, endTimeUnixNano: unknown = '1772359201000000000') => ({ traceId, spanId, name: `span ${spanId}`, startTimeUnixNano, endTimeUnixNano });
const exportOf = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ scope: { name: 'app' }, spans }] }] });

describe.each(MODES)('POST /api/public/otel/v1/traces in %s', (mode) => {
  it('refuses with 400 a resourceSpans that is not a list of objects, and a nested collection that is not a list', async () => {
    const answers: Array<[unknown, number, unknown]> = [];
    const stored = await storedAfter(mode, async (server) => {
      // Langfuse's route (web/src/pages/api/public/otel/v1/traces/index.ts) answers 200 to these and
      // its worker then drops them: validateOtelSpanIds (packages/shared/src/server/otel/utils.ts)
      // checks arrays only. This server refuses them in the message of that check instead, so a
      // hand-written exporter learns at once that nothing was taken (docs/local-server.md).
      for (const resourceSpans of ['x', {}, 5, true, ['x'], [null]]) {
        const answer = await post(server, '/api/public/otel/v1/traces', JSON.stringify({ resourceSpans }));
        answers.push([resourceSpans, answer.status, answer.body.error.split(' (')[0]]);
      }
      expect((await post(server, '/api/public/otel/v1/traces', JSON.stringify({ resourceSpans: 'x' }))).body.error).toBe(
        'Invalid OTLP trace export: 1 resource- or scope-level field(s) are present but not arrays (resourceSpans:not_an_array). resourceSpans must be a list of ResourceSpans objects. The entire export was rejected and no spans were ingested. Instrumentation scopes: unknown. This endpoint accepts OpenTelemetry traces only — if you are exporting OpenTelemetry logs, point your log exporter elsewhere.',
      );
      // Missing or empty is an empty export, as there.
      for (const body of [{}, { resourceSpans: [] }, { resourceSpans: null }]) expect(await post(server, '/api/public/otel/v1/traces', JSON.stringify(body))).toEqual({ status: 200, body: {} });
    });
    expect(answers).toEqual(answers.map(([value]) => [value, 400, 'Invalid OTLP trace export: 1 resource- or scope-level field(s) are present but not arrays']));
    expect(stored).toEqual({ traces: 0, observations: [], scores: 0 });

    // scopeSpans, spans and attributes that are present but not arrays are refused with its message.
    const server = await startServer({ port: 0, ephemeral: true, writeMode: mode });
    try {
      const nested = await post(server, '/api/public/otel/v1/traces', JSON.stringify({ resourceSpans: [{ scopeSpans: 'x' }] }));
      expect(nested).toEqual({
        status: 400,
        body: {
          error:
            'Invalid OTLP trace export: 1 resource- or scope-level field(s) are present but not arrays (scopeSpans:not_an_array). scopeSpans, spans, attributes and events must all be arrays — OTLP attributes are a list of {key, value} entries, not a JSON object. The entire export was rejected and no spans were ingested. Instrumentation scopes: unknown. This endpoint accepts OpenTelemetry traces only — if you are exporting OpenTelemetry logs, point your log exporter elsewhere.',
        },
      });
      // In protobuf, resourceSpans is a repeated message: a string in its place does not decode
      // (ExportTraceServiceRequest.decode throws): "Failed to parse OTel Protobuf Trace".
      const protobuf = (hex: string) => post(server, '/api/public/otel/v1/traces', Buffer.from(hex, 'hex'), 'application/x-protobuf');
      expect(await protobuf('0a0178')).toEqual({ status: 400, body: '{"error":"Failed to parse OTel Protobuf Trace"}' });
      // One empty ResourceSpans decodes: 200.
      expect((await protobuf('0a00')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('converts start times as the OTel processor does: no clamp, no refusal', async () => {
    const trace = (n: number) => `${n}`.padStart(32, '0');
    const spanId = (n: number) => `${n}`.padStart(16, '0');
    const stored = await storedAfter(mode, async (server) => {
      const answer = await post(
        server,
        '/api/public/otel/v1/traces',
        exportOf([
          // convertNanoTimestampToISO (packages/shared/src/server/otel/OtelIngestionProcessor.ts):
          // BigInt division truncates toward zero, so a small negative time is the epoch itself.
          span(trace(1), spanId(1), '-5'),
          span(trace(2), spanId(2), '-1000000000000000000'),
          // Past what a Date holds, or not an integer: no time, so resolveSpanTimestamps takes the end.
          span(trace(3), spanId(3), '99999999999999999999999'),
          span(trace(4), spanId(4), 'abc'),
          span(trace(5), spanId(5), 1e30),
          // Both edges unusable: the time of ingestion.
          span(trace(6), spanId(6), 'abc', 'def'),
          // A start after the end stays; the worker's IngestionService moves the end up to it.
          span(trace(8), spanId(8), '1772359202000000000'),
          // A Date in range whose ISO form has a 6-digit year: the ingestion schema's datetime
          // refuses it, and the worker drops the observation (and its trace) with a warning.
          span(trace(7), spanId(7), 1e21),
        ]),
      );
      expect(answer).toEqual({ status: 200, body: {} });
    });
    const startOf = new Map(stored.observations.map((o) => [o.id, o.startTime]));
    expect(stored.observations.find((o) => o.id === spanId(8))).toMatchObject({ startTime: '2026-03-01T10:00:02.000Z', endTime: '2026-03-01T10:00:02.000Z' });
    expect(Object.fromEntries(startOf)).toEqual({
      [spanId(1)]: '1970-01-01T00:00:00.000Z',
      [spanId(2)]: '1938-04-24T22:13:20.000Z',
      [spanId(3)]: '2026-03-01T10:00:01.000Z',
      [spanId(4)]: '2026-03-01T10:00:01.000Z',
      [spanId(5)]: '2026-03-01T10:00:01.000Z',
      [spanId(6)]: expect.stringMatching(/^20\d\d-/),
      [spanId(8)]: '2026-03-01T10:00:02.000Z',
    });
    expect(Date.now() - Date.parse(startOf.get(spanId(6))!)).toBeLessThan(60_000);
    expect(stored.traces).toBe(7);
  });
});
