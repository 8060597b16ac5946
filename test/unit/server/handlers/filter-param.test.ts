// The `filter` query parameter of the traces list and the v1 and v2 observation lists (a JSON
// array of the service's filter objects), on traffic sent through the ingestion API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';

let server: RunningServer;
const call = apiCaller(() => server);
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

let n = 0;
const ev = (type: string, s: number, body: Record<string, unknown>) => ({ id: `e-${++n}`, type, timestamp: at(s), body });

beforeAll(async () => {
  // Traffic over the batch route, filtered on the traces list and the v1 and v2 observation lists: dual mode.
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  expect((await call('POST', '/api/public/v2/prompts', { name: 'qa', type: 'text', prompt: 'Answer {{q}}' })).status).toBe(201);
  const batch = [
    ev('trace-create', 0, { id: 't-chat', name: 'chat', userId: 'ann', sessionId: 's1', tags: ['prod', 'web'], release: 'r1', version: 'v1', metadata: { team: 'search', tier: 2 }, environment: 'production' }),
    ev('trace-create', 60, { id: 't-batch', name: 'nightly batch', userId: 'bob', tags: ['batch'], metadata: { team: 'data' } }),
    ev('trace-create', 120, { id: 't-empty', name: 'chat', userId: 'cid' }),
    ev('span-create', 0, { id: 'o-root', traceId: 't-chat', name: 'handle', startTime: at(0), endTime: at(4), environment: 'production', metadata: { route: '/ask' } }),
    ev('generation-create', 1, {
      id: 'o-gen', traceId: 't-chat', parentObservationId: 'o-root', name: 'answer', model: 'gpt-4o', startTime: at(1), completionStartTime: at(1.5), endTime: at(3),
      environment: 'production', usageDetails: { input: 1000, output: 200 }, input: 'What is the Capital of France?', output: 'Paris', level: 'WARNING', statusMessage: 'slow upstream',
      promptName: 'qa', promptVersion: 1,
    }),
    ev('generation-create', 61, { id: 'o-batch', traceId: 't-batch', name: 'summarise', model: 'gpt-4o-mini', startTime: at(61), endTime: at(71), usageDetails: { input: 50, output: 10 }, level: 'ERROR' }),
    ev('event-create', 62, { id: 'o-event', traceId: 't-batch', parentObservationId: 'o-batch', name: 'retry', startTime: at(62), metadata: { attempt: 2 } }),
    ev('score-create', 5, { id: 'sc-1', traceId: 't-chat', name: 'quality', value: 0.9 }),
    ev('score-create', 5, { id: 'sc-2', traceId: 't-chat', name: 'quality', value: 0.7 }),
    ev('score-create', 5, { id: 'sc-3', traceId: 't-batch', name: 'quality', value: 0.2 }),
    ev('score-create', 5, { id: 'sc-4', traceId: 't-chat', name: 'verdict', value: 'good' }),
    ev('score-create', 5, { id: 'sc-5', traceId: 't-batch', name: 'correct', value: 1, dataType: 'BOOLEAN' }),
  ];
  const answer = await call('POST', '/api/public/ingestion', { batch });
  expect(answer.body.errors).toEqual([]);
});
afterAll(() => server.close());

const q = (filters: unknown[]) => `filter=${encodeURIComponent(JSON.stringify(filters))}`;
const traceIds = async (query: string) => {
  const answer = await call('GET', `/api/public/traces?${query}`);
  expect(answer.status).toBe(200);
  expect(answer.body.meta.totalItems).toBe(answer.body.data.length);
  return answer.body.data.map((t: { id: string }) => t.id).sort();
};
const observationIds = async (query: string) => {
  const answer = await call('GET', `/api/public/observations?${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data.map((o: { id: string }) => o.id).sort();
};
const v2Ids = async (query: string) => {
  const answer = await call('GET', `/api/public/v2/observations?${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data.map((o: { id: string }) => o.id).sort();
};
const refused = async (path: string) => {
  const answer = await call('GET', path, undefined, { unchecked: true });
  expect(answer.status).toBe(400);
  return answer.body;
};

describe('traces: filter', () => {
  it('filters by the trace columns with each type of filter', async () => {
    expect(await traceIds(q([{ type: 'string', column: 'name', operator: '=', value: 'chat' }]))).toEqual(['t-chat', 't-empty']);
    expect(await traceIds(q([{ type: 'string', column: 'Name', operator: 'starts with', value: 'night' }]))).toEqual(['t-batch']);
    expect(await traceIds(q([{ type: 'string', column: 'userId', operator: 'does not contain', value: 'o' }]))).toEqual(['t-chat', 't-empty']);
    expect(await traceIds(q([{ type: 'stringOptions', column: 'userId', operator: 'any of', value: ['ann', 'cid'] }]))).toEqual(['t-chat', 't-empty']);
    expect(await traceIds(q([{ type: 'stringOptions', column: 'environment', operator: 'none of', value: ['production'] }]))).toEqual(['t-batch', 't-empty']);
    expect(await traceIds(q([{ type: 'datetime', column: 'timestamp', operator: '>=', value: at(60) }]))).toEqual(['t-batch', 't-empty']);
    expect(await traceIds(q([{ type: 'arrayOptions', column: 'tags', operator: 'any of', value: ['web', 'batch'] }]))).toEqual(['t-batch', 't-chat']);
    expect(await traceIds(q([{ type: 'arrayOptions', column: 'traceTags', operator: 'all of', value: ['prod', 'web'] }]))).toEqual(['t-chat']);
    expect(await traceIds(q([{ type: 'arrayOptions', column: 'tags', operator: 'none of', value: ['prod'] }]))).toEqual(['t-batch', 't-empty']);
    expect(await traceIds(q([{ type: 'stringObject', column: 'metadata', key: 'team', operator: '=', value: 'search' }]))).toEqual(['t-chat']);
    // Metadata values compare as the strings the service keeps: the number 2 is "2".
    expect(await traceIds(q([{ type: 'stringObject', column: 'metadata', key: 'tier', operator: '=', value: '2' }]))).toEqual(['t-chat']);
    expect(await traceIds(q([{ type: 'null', column: 'sessionId', operator: 'is null', value: '' }]))).toEqual(['t-batch', 't-empty']);
    expect(await traceIds(q([{ type: 'boolean', column: 'bookmarked', operator: '=', value: false }]))).toEqual(['t-batch', 't-chat', 't-empty']);
  });

  it('filters on what the trace aggregates: level, tokens, cost, latency and scores', async () => {
    expect(await traceIds(q([{ type: 'stringOptions', column: 'level', operator: 'any of', value: ['ERROR'] }]))).toEqual(['t-batch']);
    expect(await traceIds(q([{ type: 'number', column: 'warningCount', operator: '>=', value: 1 }]))).toEqual(['t-chat']);
    expect(await traceIds(q([{ type: 'number', column: 'inputTokens', operator: '>', value: 100 }]))).toEqual(['t-chat']);
    expect(await traceIds(q([{ type: 'number', column: 'totalCost', operator: '>', value: 0 }]))).toEqual(['t-batch', 't-chat']);
    expect(await traceIds(q([{ type: 'number', column: 'latency', operator: '>', value: 5 }]))).toEqual(['t-batch']);
    expect(await traceIds(q([{ type: 'numberObject', column: 'scores_avg', key: 'quality', operator: '>=', value: 0.8 }]))).toEqual(['t-chat']);
    expect(await traceIds(q([{ type: 'numberObject', column: 'scores', key: 'quality', operator: '<', value: 0.5 }]))).toEqual(['t-batch']);
    expect(await traceIds(q([{ type: 'categoryOptions', column: 'score_categories', key: 'verdict', operator: 'any of', value: ['good'] }]))).toEqual(['t-chat']);
    expect(await traceIds(q([{ type: 'booleanObject', column: 'score_booleans', key: 'correct', operator: '=', value: true }]))).toEqual(['t-batch']);
    expect(await traceIds(q([{ type: 'booleanObject', column: 'score_booleans', key: 'correct', operator: '<>', value: true }]))).toEqual(['t-chat', 't-empty']);
  });

  it('takes a stringOptions filter on score_categories as the service does: the trace\'s labels must be the list', async () => {
    // traces-api.servertest.ts "should filter by score_categories without requesting scores field group".
    // The service runs `s.score_categories IN (list)`: an array on both sides, one value to ClickHouse.
    const categories = (operator: string, value: string[]) => q([{ type: 'stringOptions', column: 'score_categories', operator, value }]);
    expect(await traceIds(`fields=core&${categories('any of', ['verdict:good'])}`)).toEqual(['t-chat']);
    expect(await traceIds(categories('any of', ['verdict:good', 'verdict:bad']))).toEqual([]);
    expect(await traceIds(categories('none of', ['verdict:good']))).toEqual(['t-batch', 't-empty']);
  });

  it('takes the simple parameters too, each giving way to a filter on its own column', async () => {
    expect(await traceIds(`userId=ann&${q([{ type: 'string', column: 'name', operator: '=', value: 'chat' }])}`)).toEqual(['t-chat']);
    expect(await traceIds(`userId=ann&${q([{ type: 'string', column: 'userId', operator: '=', value: 'cid' }])}`)).toEqual(['t-empty']);
    expect(await traceIds(`fromTimestamp=${encodeURIComponent(at(100))}&${q([{ type: 'datetime', column: 'timestamp', operator: '<', value: at(100) }])}`)).toEqual(['t-batch', 't-chat']);
  });

  it('refuses what the service refuses, with its messages', async () => {
    expect(await refused('/api/public/traces?filter=not-json')).toEqual({ message: 'Invalid JSON in filter parameter', error: 'InvalidRequestError' });
    expect(await refused(`/api/public/traces?${q([{ type: 'string', column: 'nope', operator: '=', value: 'x' }])}`)).toMatchObject({ message: 'Column nope does not match a UI / CH table mapping.' });
    expect(await refused(`/api/public/traces?${q([{ type: 'number', column: 'timestamp', operator: '=', value: 1 }])}`)).toMatchObject({
      message: "Invalid filter type 'number' for column 'timestamp'. Expected filter type 'datetime'.",
    });
    expect(await refused(`/api/public/traces?${q([{ type: 'string', column: 'scores', operator: '=', value: 'x' }])}`)).toMatchObject({ message: expect.stringContaining("legacy score column 'scores'") });
    expect((await refused(`/api/public/traces?${q([{ type: 'string', column: 'name', operator: 'is', value: 'x' }])}`)).message).toBe('Invalid request data');
    expect((await refused(`/api/public/traces?${q([{ type: 'stringOptions', column: 'name', operator: 'any of', value: [] }])}`)).message).toBe('Invalid request data');
  });
});

describe('observations: filter', () => {
  it('v1: observation columns, their trace\'s columns, and the simple parameters', async () => {
    expect(await observationIds(q([{ type: 'stringOptions', column: 'type', operator: 'any of', value: ['GENERATION'] }]))).toEqual(['o-batch', 'o-gen']);
    expect(await observationIds(q([{ type: 'number', column: 'latency', operator: '>', value: 5 }]))).toEqual(['o-batch']);
    expect(await observationIds(q([{ type: 'number', column: 'timeToFirstToken', operator: '=', value: 0.5 }]))).toEqual(['o-gen']);
    expect(await observationIds(q([{ type: 'string', column: 'statusMessage', operator: 'contains', value: 'upstream' }]))).toEqual(['o-gen']);
    expect(await observationIds(q([{ type: 'stringOptions', column: 'model', operator: 'any of', value: ['gpt-4o-mini'] }]))).toEqual(['o-batch']);
    expect(await observationIds(q([{ type: 'number', column: 'promptVersion', operator: '=', value: 1 }]))).toEqual(['o-gen']);
    expect(await observationIds(q([{ type: 'string', column: 'userId', operator: '=', value: 'bob' }]))).toEqual(['o-batch', 'o-event']);
    expect(await observationIds(q([{ type: 'arrayOptions', column: 'traceTags', operator: 'any of', value: ['web'] }]))).toEqual(['o-gen', 'o-root']);
    expect(await observationIds(q([{ type: 'stringObject', column: 'metadata', key: 'attempt', operator: '=', value: '2' }]))).toEqual(['o-event']);
    expect(await observationIds(`type=GENERATION&${q([{ type: 'stringOptions', column: 'environment', operator: 'any of', value: ['production'] }])}`)).toEqual(['o-gen']);
    expect(await refused(`/api/public/observations?${q([{ type: 'numberObject', column: 'scores_avg', key: 'quality', operator: '>', value: 0 }])}`)).toMatchObject({
      message: 'Column scores_avg does not match a UI / CH table mapping.',
    });
  });

  it('v2: the events columns, input and output with = or matches, root and parent flags', async () => {
    expect(await v2Ids(q([{ type: 'boolean', column: 'isRootObservation', operator: '=', value: true }]))).toEqual(['o-batch', 'o-root']);
    expect(await v2Ids(q([{ type: 'boolean', column: 'hasParentObservation', operator: '=', value: true }]))).toEqual(['o-event', 'o-gen']);
    expect(await v2Ids(q([{ type: 'string', column: 'input', operator: 'matches', value: 'capital of france' }]))).toEqual(['o-gen']);
    expect(await v2Ids(q([{ type: 'string', column: 'output', operator: '=', value: 'Paris' }, { type: 'string', column: 'input', operator: 'contains', value: 'France' }]))).toEqual(['o-gen']);
    expect(await v2Ids(q([{ type: 'stringOptions', column: 'providedModelName', operator: 'any of', value: ['gpt-4o'] }]))).toEqual(['o-gen']);
    expect(await v2Ids(q([{ type: 'string', column: 'release', operator: '=', value: 'r1' }]))).toEqual(['o-gen', 'o-root']);
    expect(await refused(`/api/public/v2/observations?${q([{ type: 'string', column: 'input', operator: 'contains', value: 'France' }])}`)).toMatchObject({
      message: 'Input/output filters require at least one `matches` or `=` operator.',
    });
    expect(await refused(`/api/public/v2/observations?${q([{ type: 'null', column: 'output', operator: 'is null', value: '' }])}`)).toMatchObject({
      message: 'Input/output filters only support filter type `string`.',
    });
    // `matches` belongs to the v2 list only.
    expect((await refused(`/api/public/observations?${q([{ type: 'string', column: 'input', operator: 'matches', value: 'x' }])}`)).message).toBe('Invalid request data');
  });

  it('v2: refuses `matches` where the service has no text index, or without a word to search for', async () => {
    // observations-api-v2.servertest.ts "rejects matches filters with ..."; messages of clickhouse-sql/fts.ts.
    const onName = q([{ type: 'string', column: 'name', operator: 'matches', value: 'needle' }]);
    expect(await refused(`/api/public/v2/observations?${onName}`)).toEqual({ message: '`matches` is only supported for input, output, and metadata filters.', error: 'InvalidRequestError' });
    const empty = q([{ type: 'string', column: 'output', operator: 'matches', value: '' }]);
    expect(await refused(`/api/public/v2/observations?${empty}`)).toMatchObject({ message: '`matches` requires at least one search token.' });
    const tokenless = q([{ type: 'stringObject', column: 'metadata', key: 'route', operator: 'matches', value: '!!!' }]);
    expect(await refused(`/api/public/v2/observations?${tokenless}`)).toMatchObject({ message: '`matches` requires at least one search token.' });
    expect(await v2Ids(q([{ type: 'stringObject', column: 'metadata', key: 'route', operator: 'matches', value: 'ask' }]))).toEqual(['o-root']);
  });

  it('v1 on the events table (useEventsTable=true): input and output with any string operator', async () => {
    // observations-api-v2.servertest.ts "allows legacy v1 contains filters on IO": that list skips the v2 rules
    // (getObservationsFromEventsTableForPublicApi, allowUnindexedIoFilters); the legacy columns have no input.
    const contains = q([{ type: 'string', column: 'output', operator: 'contains', value: 'ari' }]);
    // useEventsTable is not in the OpenAPI file: the call is not checked against it.
    const events = await call('GET', `/api/public/observations?useEventsTable=true&${contains}`, undefined, { unchecked: true });
    expect(events.body.data.map((o: { id: string }) => o.id)).toEqual(['o-gen']);
    expect(await refused(`/api/public/observations?${contains}`)).toMatchObject({ message: 'Column output does not match a UI / CH table mapping.' });
  });
});
