// The v1 and v2 observations of the read API (API.md section 6), over the records of
// support/read-api.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V4_ONLY_MESSAGES } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';
import { at, call, get, gpt4o, useReadApi } from './support/read-api.js';

// v1 and v2 lists side by side: dual mode.
useReadApi({ writeMode: 'dual' });

describe('GET /api/public/observations (v1)', () => {
  it('gets one with its matched model prices, and lists with filters', async () => {
    const one = await get('/api/public/observations/o2');
    expect(one.body).toMatchObject({ id: 'o2', traceId: 't1', model: 'gpt-4o', inputPrice: gpt4o.inputPrice, totalPrice: gpt4o.totalPrice });
    expect((await get('/api/public/observations/o3')).body).toMatchObject({ inputPrice: null, modelId: null });
    expect(await get('/api/public/observations/none')).toEqual({ status: 404, body: { message: 'Observation not found within authorized project', error: 'LangfuseNotFoundError' } });
    const list = await get('/api/public/observations?type=GENERATION');
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual(['o3', 'o2']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, totalItems: 2, totalPages: 1 });
    expect((await get('/api/public/observations?traceId=t1&userId=u1')).body.meta.totalItems).toBe(2);
    expect((await get('/api/public/observations?type=NOPE')).status).toBe(400);
  });
});

describe('GET /api/public/v2/observations', () => {
  it('returns core and basic fields by default, with empty enrichment fields', async () => {
    const answer = await get('/api/public/v2/observations');
    expect(answer.body.meta).toEqual({});
    expect(answer.body.data.map((o: { id: string }) => o.id)).toEqual(['o3', 'o2', 'o1']);
    expect(Object.keys(answer.body.data[1]).sort()).toEqual(
      ['id', 'traceId', 'startTime', 'endTime', 'projectId', 'parentObservationId', 'type', 'name', 'level', 'statusMessage', 'version', 'environment', 'bookmarked', 'public', 'userId', 'sessionId', 'isRootObservation', 'modelId', 'inputPrice', 'outputPrice', 'totalPrice'].sort(),
    );
    expect(answer.body.data[1]).toMatchObject({ userId: 'u1', sessionId: 's1', isRootObservation: false, modelId: null, inputPrice: null });
  });

  it('gives prices as decimal strings with the model group, and input and output as raw strings with io', async () => {
    const answer = await get('/api/public/v2/observations?fields=core,model,usage,io,prompt,metrics,trace_context&traceId=t1&type=GENERATION');
    const [generation] = answer.body.data;
    expect(generation).toMatchObject({
      providedModelName: 'gpt-4o', internalModelId: gpt4o.id, modelId: gpt4o.id, totalCost: 0.000075, usagePricingTierName: 'Standard',
      input: '[{"role":"user","content":"hi"}]', output: 'hello', promptName: 'greeting', latency: 1.25, traceName: 'chat', tags: ['a', 'b'], release: 'r1',
    });
    expect(typeof generation.inputPrice).toBe('string');
    expect(Number(generation.inputPrice)).toBe(gpt4o.inputPrice);
  });

  it('pages by cursor in (startTime, traceId, id) order, and refuses parseIoAsJson=true', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const answer = await get(`/api/public/v2/observations?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...answer.body.data.map((o: { id: string }) => o.id));
      cursor = answer.body.meta.cursor;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual(['o3', 'o2', 'o1']);
    expect(JSON.parse(Buffer.from((await get('/api/public/v2/observations?limit=1')).body.meta.cursor, 'base64').toString())).toEqual({ lastStartTimeTo: at(3600), lastTraceId: 't2', lastId: 'o3' });
    const refused = await get('/api/public/v2/observations?parseIoAsJson=true');
    expect(refused.status).toBe(400);
    expect(refused.body.error[0].message).toMatch(/^parseIoAsJson=true is no longer supported/);
    expect((await get('/api/public/v2/observations?limit=1001')).status).toBe(400);
    expect((await get('/api/public/v2/observations?isRootObservation=true')).body.data.map((o: { id: string }) => o.id)).toEqual(['o3', 'o1']);
  });

  it('refuses a cursor that is not base64 JSON with the service\'s InvalidRequestError', async () => {
    // observations-api-v2.servertest.ts "should reject invalid cursor format"; EncodedObservationsCursorV2 throws it.
    expect(await get('/api/public/v2/observations?cursor=invalid-base64-string')).toEqual({ status: 400, body: { message: 'Invalid cursor format', error: 'InvalidRequestError' } });
    const wrongShape = Buffer.from(JSON.stringify({ foo: 'bar' })).toString('base64');
    expect((await get(`/api/public/v2/observations?cursor=${wrongShape}`)).body.message).toBe('Invalid request data');
  });

  it('takes several environments, repeated or as a comma list', async () => {
    // observations-api-v2.servertest.ts "multiple environment query params (any-of semantics)".
    const ids = async (query: string) => (await get(`/api/public/v2/observations?${query}`)).body.data.map((o: { id: string }) => o.id);
    expect(await ids('environment=production&environment=default')).toEqual(['o3', 'o2', 'o1']);
    expect(await ids('environment=production,default')).toEqual(['o3', 'o2', 'o1']);
    expect(await ids('environment=production')).toEqual(['o2', 'o1']);
    expect(await ids('traceId=t1&environment=default&environment=staging')).toEqual([]);
  });

  it('gives traceName null where the trace has no name, the root observation\'s name standing in for it', async () => {
    const ev = (id: string, type: string, body: Record<string, unknown>) => ({ id, type, timestamp: at(7200), body });
    const batch = [
      ev('n1', 'trace-create', { id: 't-unnamed' }),
      ev('n2', 'span-create', { id: 'on-root', traceId: 't-unnamed', name: 'handler', startTime: at(7200) }),
      ev('n3', 'span-create', { id: 'on-child', traceId: 't-unnamed', parentObservationId: 'on-root', name: 'step', startTime: at(7201) }),
      ev('n4', 'trace-create', { id: 't-empty-name', name: '' }),
      ev('n5', 'span-create', { id: 'oe-child', traceId: 't-empty-name', parentObservationId: 'elsewhere', name: 'step', startTime: at(7202) }),
    ];
    expect((await call('POST', '/api/public/ingestion', { batch })).body.errors).toEqual([]);
    // eventsTableTraceNameSql and normalizeEventsTraceName (packages/shared/src/eventsTable.ts);
    // observations-api-v2.servertest.ts "returns null traceName for a child span without a stored trace name".
    const names = Object.fromEntries((await get('/api/public/v2/observations?fields=trace_context&fromStartTime=' + encodeURIComponent(at(7200)))).body.data.map((o: { id: string; traceName: unknown }) => [o.id, o.traceName]));
    expect(names).toEqual({ 'on-root': 'handler', 'on-child': null, 'oe-child': null });
  });

  it('cuts metadata values to 200 code points unless io is asked for or expandMetadata names a key', async () => {
    const long = 'a'.repeat(300);
    const emoji = '\u{1F600}'.repeat(250);
    const nested = { text: 'n'.repeat(300) };
    const metadata = { long, emoji, nested, exactly: 'b'.repeat(200), digits: '7'.repeat(250), num: 42, short: 'x' };
    const batch = [
      { id: 'm1', type: 'trace-create', timestamp: at(9000), body: { id: 't-meta', name: 'meta' } },
      { id: 'm2', type: 'span-create', timestamp: at(9000), body: { id: 'o-meta', traceId: 't-meta', startTime: at(9000), metadata } },
    ];
    expect((await call('POST', '/api/public/ingestion', { batch })).body.errors).toEqual([]);
    const metadataOf = async (query: string) => (await get(`/api/public/v2/observations?traceId=t-meta&${query}`)).body.data[0].metadata;
    // observations-api-v2.servertest.ts "Metadata expansion with expandMetadata parameter": events_core
    // keeps leftUTF8(value, 200) of each stored text, which the answer parses again where it parses.
    const cut = {
      long: long.slice(0, 200),
      emoji: '\u{1F600}'.repeat(200),
      nested: JSON.stringify(nested).slice(0, 200),
      exactly: metadata.exactly,
      digits: '7'.repeat(200),
      num: 42,
      short: 'x',
    };
    expect(await metadataOf('fields=metadata')).toEqual(cut);
    expect(await metadataOf('fields=core,metadata&expandMetadata=')).toEqual(cut);
    expect(await metadataOf('fields=metadata&expandMetadata=%20,%20')).toEqual(cut);
    // Whole metadata comes from events_full: every value, not only the keys named.
    expect(await metadataOf('fields=metadata&expandMetadata=long')).toEqual(metadata);
    expect(await metadataOf('fields=metadata&expandMetadata=nonExistentKey')).toEqual(metadata);
    expect(await metadataOf('fields=io,metadata')).toEqual(metadata);
  });
});

// web/src/pages/api/public/v2/observations/index.ts: with the v4 preview off (a legacy
// deployment) the route answers 404 after authentication and the query's check.
describe('GET /api/public/v2/observations in legacy mode', () => {
  let legacy: RunningServer;
  const call = apiCaller(() => legacy);
  beforeAll(async () => {
    legacy = await startServer({ port: 0, ephemeral: true, writeMode: 'legacy' });
  });
  afterAll(() => legacy.close());

  it('answers 404 once the key and the query pass', async () => {
    expect(await call('GET', '/api/public/v2/observations', undefined, { unchecked: true })).toEqual({ status: 404, body: { message: V4_ONLY_MESSAGES.observations, error: 'LangfuseNotFoundError' } });
    expect((await call('GET', '/api/public/v2/observations?limit=1001', undefined, { unchecked: true })).status).toBe(400);
    expect((await call('GET', '/api/public/v2/observations', undefined, { auth: null, unchecked: true })).status).toBe(401);
    expect((await call('GET', '/api/public/observations')).status).toBe(200);
  });
});
