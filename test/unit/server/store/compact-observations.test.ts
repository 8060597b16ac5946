// Migration 6: a store of schema 4, its observations written as version 4 wrote them (the whole
// record as JSON beside the columns, the event log as the pipeline gave it), opened by this
// version: every record and event log reads back the same, the columns queries read hold the same
// values, the v2 list keeps its order, and a later event merges into a migrated observation as it
// does into one that was never migrated.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { millisBetween, sumOfKeys } from '../../../../src/core/metrics/index.js';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import { ingestEvents } from '../../../../src/server/ingest/routes.js';
import type { EventLog, IngestAuth } from '../../../../src/server/ingest/types.js';
import type { ObservationRecord } from '../../../../src/server/records.js';
import { MIGRATIONS } from '../../../../src/server/store/migrations.js';
import { DATABASE_FILE, Store } from '../../../../src/server/store/index.js';
import { xxHash32 } from '../../../../src/server/store/xxhash32.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { tempDir } from '../../../helpers/cli.js';
import { MemoryStore } from '../ingest/support/memory-store.js';
import { observationRecord } from '../../../helpers/store-records.js';

const PROJECT = 'proj-v4';
const auth: IngestAuth = { projectId: PROJECT, accessLevel: 'project' };
const NOW = new Date('2026-03-01T12:00:00.000Z');
const ts = (s: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + s * 1000).toISOString();
let eventNo = 0;
const ev = (type: string, s: number, body: Record<string, unknown>) => ({ id: `ev-${++eventNo}`, type, timestamp: ts(s), body });

// The first requests: generations with usage and without (tokenized), a create and update of one
// id, a span without trace, tool definitions moved from the metadata into the input (the log keeps
// the raw input), metadata values that parse, an event, levels and a status message.
const FIRST = [
  ev('trace-create', 0, { id: 't1', name: 'chat', userId: 'u1' }),
  ev('generation-create', 0, { id: 'g1', traceId: 't1', name: 'llm', model: 'gpt-4o', input: [{ role: 'user', content: 'hi' }], output: 'hello', usageDetails: { input: 10, output: 2 }, modelParameters: { temperature: 0.2 }, metadata: { n: '1', s: 'x' } }),
  ev('generation-create', 1, { id: 'g2', traceId: 't1', model: 'claude-sonnet-4-5', input: 'count these words please', output: 'done' }),
  ev('generation-update', 5, { id: 'g2', endTime: ts(6), completionStartTime: ts(2), output: 'done twice', level: 'WARNING', statusMessage: 'slow' }),
  ev('span-create', 2, { id: 's1', name: 'retrieve', startTime: ts(2), endTime: ts(3), metadata: { tools: [{ type: 'function', function: { name: 'search' } }] }, input: 'q' }),
  ev('event-create', 3, { id: 'e1', traceId: 't1', parentObservationId: 'g1', name: 'mark', version: 'v2' }),
  ev('generation-create', 4, { id: 'g3', traceId: 't1', model: 'my-unknown-model', usageDetails: { input: 3 }, costDetails: { input: 0.5 } }),
];
// A later request: an update of a migrated observation, merged with its stored events.
const LATER = [ev('generation-update', 10, { id: 'g2', name: 'renamed', metadata: { step: 'late' }, usageDetails: { input: 7, output: 1 } }), ev('span-update', 1, { id: 's1', level: 'ERROR' })];

/** Version 4's observation row: the put of that version, column for column. */
function putV4(db: { prepare(sql: string): { run(params: unknown[]): unknown } }, o: ObservationRecord, log: unknown): void {
  db.prepare(
    `INSERT INTO observations (id, trace_id, parent_observation_id, type, name, environment, level, version, start_time, end_time,
       completion_start_time, provided_model_name, internal_model_id, prompt_name, prompt_version, input_tokens, output_tokens,
       total_tokens, input_cost, output_cost, total_cost, latency_ms, time_to_first_token_ms, created_at, updated_at, record, events, trace_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run([
    o.id,
    o.traceId,
    o.parentObservationId,
    o.type,
    o.name,
    o.environment,
    o.level,
    o.version,
    o.startTime,
    o.endTime,
    o.completionStartTime,
    o.providedModelName,
    o.internalModelId,
    o.promptName,
    o.promptVersion,
    sumOfKeys(o.usageDetails, 'input'),
    sumOfKeys(o.usageDetails, 'output'),
    o.usageDetails?.total ?? 0,
    sumOfKeys(o.costDetails, 'input'),
    sumOfKeys(o.costDetails, 'output'),
    o.totalCost,
    millisBetween(o.startTime, o.endTime),
    millisBetween(o.startTime, o.completionStartTime),
    o.createdAt,
    o.updatedAt,
    JSON.stringify(o),
    log === null ? null : JSON.stringify(log),
    xxHash32(o.traceId ?? ''),
  ]);
}

const QUERIED = 'id, trace_id, type, name, environment, level, version, start_time, end_time, provided_model_name, internal_model_id, prompt_name, prompt_version, input_tokens, output_tokens, total_tokens, input_cost, output_cost, total_cost, latency_ms, time_to_first_token_ms, trace_hash';

function schema4Store() {
  const memory = new MemoryStore();
  const first = processBatch(FIRST, auth, memory, { now: NOW, count: engineCounter, newId: () => 'generated-trace' });
  expect(first.response.errors).toEqual([]);
  memory.apply(first.writes);

  const dir = tempDir();
  const Database = createRequire(import.meta.url)('libsql');
  const db = new Database(join(dir, DATABASE_FILE));
  for (const migration of MIGRATIONS.slice(0, 4)) (typeof migration === 'string' ? db.exec(migration) : migration(db));
  db.exec(`INSERT INTO project (id, record) VALUES ('${PROJECT}', '{"id":"${PROJECT}","name":"v4","organization":{"id":"o","name":"o"},"metadata":{},"createdAt":"2026-01-01T00:00:00.000Z"}')`);
  db.exec("INSERT INTO api_keys VALUES ('k', 'pk-lf-v4', 'sk-lf-v4', '2026-01-01T00:00:00.000Z')");
  const stored = new Map<string, { record: ObservationRecord; log: unknown }>();
  for (const { record, log } of first.writes.observations) stored.set(record.id, { record, log });
  // Records of other origins: another project's, one with a field this version does not know,
  // one updated after it was created, and a record of an early version that lacks most fields.
  const g1 = first.writes.observations.find((o) => o.record.id === 'g1')!.record;
  stored.set('other-project', { record: { ...g1, id: 'other-project', projectId: 'proj-elsewhere' }, log: null });
  stored.set('extra-field', { record: { ...g1, id: 'extra-field', futureField: { a: [1, 'b'] } } as ObservationRecord, log: null });
  stored.set('updated', { record: { ...g1, id: 'updated', updatedAt: '2026-03-02T00:00:00.000Z', input: null, metadata: {} }, log: { events: [] } });
  for (const { record, log } of stored.values()) putV4(db, record, log);
  const early = { id: 'early', traceId: 't1', startTime: ts(9), type: 'SPAN' };
  db.prepare("INSERT INTO observations (id, trace_id, type, environment, level, start_time, created_at, updated_at, record, trace_hash) VALUES (?, ?, 'SPAN', 'default', 'DEFAULT', ?, ?, ?, ?, ?)").run([
    early.id,
    early.traceId,
    early.startTime,
    early.startTime,
    early.startTime,
    JSON.stringify(early),
    xxHash32('t1'),
  ]);
  db.exec('PRAGMA user_version = 4');
  const columnsBefore = db.prepare(`SELECT ${QUERIED} FROM observations ORDER BY id`).all();
  const orderBefore = db.prepare('SELECT id FROM observations ORDER BY start_time DESC, trace_hash DESC, id DESC').all();
  db.close();
  return { dir, memory, stored, early, columnsBefore, orderBefore };
}

describe('migration 6: observations in a compact row', () => {
  it('reads back every record and event log of a schema-4 store as stored, with the same query columns and order', () => {
    const { dir, memory, stored, early, columnsBefore, orderBefore } = schema4Store();
    const Database = createRequire(import.meta.url)('libsql');
    const { store } = Store.open({ dataDir: dir, now: () => NOW });
    store.read((tx) => {
      for (const [id, { record, log }] of stored) {
        const read = tx.observations.get(id)!;
        // The same record, its fields in the same order.
        expect(JSON.stringify(read)).toBe(JSON.stringify(record));
        expect(read).toStrictEqual(JSON.parse(JSON.stringify(record)));
        expect(tx.observations.withEvents([id]).get(id)).toStrictEqual({ record: read, events: JSON.parse(JSON.stringify(log)) });
      }
      expect(tx.observations.get('early')).toStrictEqual(early);
      expect(tx.observations.page({}, undefined, 100).map((o) => o.id)).toEqual(orderBefore.map((row: { id: string }) => row.id));
      expect(tx.observations.ofTrace('t1').map((o) => o.id)).toEqual(['extra-field', 'g1', 'other-project', 'updated', 'g2', 'e1', 'g3', 'early']);
    });
    store.close();
    const reopened = new Database(join(dir, DATABASE_FILE));
    expect(reopened.prepare(`SELECT ${QUERIED} FROM observations ORDER BY id`).all()).toEqual(columnsBefore);
    reopened.close();

    // A later request merges with the migrated records and their logs as with records never migrated.
    const later = processBatch(LATER, auth, memory, { now: NOW, count: engineCounter });
    memory.apply(later.writes);
    const again = Store.open({ dataDir: dir, now: () => NOW }).store;
    again.write((tx) => ingestEvents(LATER, tx, auth, NOW));
    again.read((tx) => {
      for (const id of ['g2', 's1']) {
        expect(tx.observations.get(id)).toStrictEqual(memory.observations.get(id));
        expect(tx.observations.get(id)).not.toStrictEqual(stored.get(id)!.record);
      }
      // The events of both requests are kept: a retry of either changes nothing.
      const log = (id: string) => (tx.observations.withEvents([id]).get(id)!.events as EventLog).events.map((e) => e.id);
      expect(log('g2')).toEqual([FIRST[2]!.id, FIRST[3]!.id, LATER[0]!.id]);
    });
    const before = again.read((tx) => tx.observations.get('g2'));
    again.write((tx) => ingestEvents([...FIRST, ...LATER], tx, auth, new Date('2026-03-05T00:00:00.000Z')));
    expect(again.read((tx) => tx.observations.get('g2'))).toStrictEqual(before);
    again.close();
  });

  it('goes on at the next open when stopped after its first step, and leaves no old table', () => {
    const { dir, stored } = schema4Store();
    const Database = createRequire(import.meta.url)('libsql');
    const db = new Database(join(dir, DATABASE_FILE));
    // More rows than one step moves.
    const many = db.prepare("INSERT INTO observations (id, type, environment, level, start_time, created_at, updated_at, record) VALUES (?, 'EVENT', 'default', 'DEFAULT', ?, ?, ?, ?)");
    db.exec('BEGIN');
    for (let i = 0; i < 2_500; i++) many.run([`many-${i}`, ts(i), ts(i), ts(i), JSON.stringify({ id: `many-${i}`, type: 'EVENT', startTime: ts(i), n: i })]);
    db.exec('COMMIT');
    // What a stop right after the migration's transaction leaves: schema 6, every row still in the old table.
    db.exec('BEGIN IMMEDIATE');
    db.exec(MIGRATIONS[4] as string);
    (MIGRATIONS[5] as (db: unknown) => void)(db);
    db.exec('PRAGMA user_version = 6; COMMIT');
    expect(db.prepare('SELECT count(*) AS n FROM observations_v4').get().n).toBe(stored.size + 1 + 2_500);
    expect(db.prepare('SELECT count(*) AS n FROM observations').get().n).toBe(0);
    db.close();

    const told: unknown[][] = [];
    const migrationProgress = { begin: (what: string, total: number) => told.push(['begin', what, total]), advance: (done: number) => told.push(['advance', done]), end: () => told.push(['end']) };
    const { store } = Store.open({ dataDir: dir, now: () => NOW, migrationProgress });
    // Said before the first step: what, how many rows, that a stop is safe; then each step's count.
    const rows = stored.size + 1 + 2_500;
    expect(told).toEqual([
      ['begin', `moving ${rows.toLocaleString('en-US')} observations to the compact row format of schema 6, 1,000 at a time; if it is stopped, the next start goes on from where it stopped`, rows],
      ['advance', 1000],
      ['advance', 2000],
      ['advance', rows],
      ['end'],
    ]);
    store.read((tx) => {
      for (const [id, { record }] of stored) expect(JSON.stringify(tx.observations.get(id))).toBe(JSON.stringify(record));
      expect(tx.observations.count()).toBe(stored.size + 1 + 2_500);
      for (const i of [0, 999, 1_000, 2_499]) expect(tx.observations.get(`many-${i}`)).toStrictEqual({ id: `many-${i}`, type: 'EVENT', startTime: ts(i), n: i });
    });
    store.close();
    const after = new Database(join(dir, DATABASE_FILE));
    expect(after.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'observations%' ORDER BY name").all().map((row: { name: string }) => row.name)).toEqual([
      'observations',
      'observations_by_time',
      'observations_by_trace',
    ]);
    after.close();
    // Nothing left to move: nothing said.
    told.length = 0;
    Store.open({ dataDir: dir, now: () => NOW, migrationProgress }).store.close();
    Store.open({ now: () => NOW, migrationProgress }).store.close();
    expect(told).toEqual([]);
  });

  it('reads back a record exactly as put, whatever it holds', () => {
    const { store } = Store.open({ now: () => NOW });
    const base = (id: string): ObservationRecord => observationRecord(id, store.project.id, ts(0));
    const records: ObservationRecord[] = [
      base('empty'),
      // Values a short encoding could confuse with "nothing": empty text, zero, false, empty arrays, null inside.
      { ...base('falsy'), input: '', output: 0, name: '', statusMessage: '', modelParameters: {}, metadata: { a: null, b: [] }, totalCost: 0, promptVersion: 0 },
      { ...base('arrays'), input: [], output: [null], modelParameters: { stop: ['\n'] }, costDetails: { total: 1e-12 }, totalCost: 1e-12 },
      { ...base('times'), createdAt: '2026-03-01T10:00:00Z', updatedAt: 'not a time', endTime: ts(1) },
      { ...base('unicode'), name: 'naïve 中文 😀', input: { '-': 1, p: 2, i: 'x' }, metadata: { '-': ['input'] } },
    ];
    const { input: _input, ...withoutInput } = base('lacks-input');
    store.write((tx) => {
      for (const record of records) tx.observations.put(record);
      tx.observations.put(withoutInput as ObservationRecord);
      tx.observations.put({ ...base('undefined-output'), output: undefined });
    });
    store.read((tx) => {
      for (const record of records) expect(JSON.stringify(tx.observations.get(record.id))).toBe(JSON.stringify(record));
      expect(tx.observations.get('lacks-input')).toStrictEqual(withoutInput);
      expect(tx.observations.get('undefined-output')).not.toHaveProperty('output');
    });
    store.close();
  });
});
