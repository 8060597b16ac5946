// Databases of an older schema brought up to date, their data kept; a newer schema refused.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../src/server/store/migrations.js';
import { DATABASE_FILE, Store } from '../../../../src/server/store/index.js';
import { tempDir } from '../../../helpers/cli.js';
import { traceRecord } from '../../../helpers/store-records.js';

const now = () => new Date('2026-11-23T00:00:00Z');


/** A data directory at schema 3 with its project and key, open on the raw database. */
function schema3Store() {
  const dir = tempDir();
  const Database = createRequire(import.meta.url)('libsql');
  const db = new Database(join(dir, DATABASE_FILE));
  for (const migration of MIGRATIONS.slice(0, 3)) db.exec(migration);
  db.exec("INSERT INTO project (id, record) VALUES ('proj-v3', '{\"id\":\"proj-v3\",\"name\":\"v3\",\"organization\":{\"id\":\"o\",\"name\":\"o\"},\"metadata\":{},\"createdAt\":\"2026-01-01T00:00:00.000Z\"}')");
  db.exec("INSERT INTO api_keys VALUES ('k', 'pk-lf-v3', 'sk-lf-v3', '2026-01-01T00:00:00.000Z')");
  return { dir, db };
}

describe('migrations', () => {
  it('brings a database of an older schema up to date and keeps its data', () => {
    const dir = tempDir();
    const Database = createRequire(import.meta.url)('libsql');
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(MIGRATIONS[0]);
    db.exec("INSERT INTO project (id, record) VALUES ('proj-v1', '{\"id\":\"proj-v1\",\"name\":\"v1\",\"organization\":{\"id\":\"o\",\"name\":\"o\"},\"metadata\":{},\"createdAt\":\"2026-01-01T00:00:00.000Z\"}')");
    db.exec("INSERT INTO api_keys VALUES ('k', 'pk-lf-v1', 'sk-lf-v1', '2026-01-01T00:00:00.000Z')");
    db.exec('PRAGMA user_version = 1');
    db.close();

    const { store, created } = Store.open({ dataDir: dir, now });
    expect(created).toBe(false);
    expect(store.project.id).toBe('proj-v1');
    store.write((tx) => tx.traces.put(traceRecord('after-migration')));
    expect(store.read((tx) => tx.traces.get('after-migration')?.name)).toBe('demo');
    store.close();
  });

  it('adds the event columns to a database of schema 2 and keeps its traffic, read as stored without events', () => {
    const dir = tempDir();
    const Database = createRequire(import.meta.url)('libsql');
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(MIGRATIONS[0]);
    db.exec(MIGRATIONS[1]);
    db.exec("INSERT INTO project (id, record) VALUES ('proj-v2', '{\"id\":\"proj-v2\",\"name\":\"v2\",\"organization\":{\"id\":\"o\",\"name\":\"o\"},\"metadata\":{},\"createdAt\":\"2026-01-01T00:00:00.000Z\"}')");
    db.exec("INSERT INTO api_keys VALUES ('k', 'pk-lf-v2', 'sk-lf-v2', '2026-01-01T00:00:00.000Z')");
    const old = traceRecord('from-v2');
    db.prepare('INSERT INTO traces (id, timestamp, environment, created_at, updated_at, record) VALUES (?, ?, ?, ?, ?, ?)').run(old.id, old.timestamp, old.environment, old.createdAt, old.updatedAt, JSON.stringify(old));
    db.exec('PRAGMA user_version = 2');
    db.close();

    const { store } = Store.open({ dataDir: dir, now });
    expect(store.read((tx) => tx.traces.withEvents(['from-v2', 'missing']))).toEqual(new Map([['from-v2', { record: old, events: null }]]));
    store.write((tx) => tx.traces.put(traceRecord('from-v3'), { events: [{ type: 'trace-create' }] }));
    expect(store.read((tx) => tx.traces.withEvents(['from-v3']).get('from-v3')?.events)).toEqual({ events: [{ type: 'trace-create' }] });
    store.close();
  });

  it('orders the observations of a database of schema 3 by the hash of their trace id once migrated', () => {
    const { dir, db } = schema3Store();
    const at = '2026-03-01T10:00:00.000Z';
    // Text order of the trace ids: gamma, delta, beta, alpha; by xxHash32: gamma, beta, delta, alpha.
    for (const [id, traceId] of [['o1', 'alpha'], ['o2', 'beta'], ['o3', 'gamma'], ['o4', 'delta'], ['o5', null]]) {
      const record = { id, traceId, startTime: at, type: 'SPAN' };
      db.prepare("INSERT INTO observations (id, trace_id, type, environment, level, start_time, created_at, updated_at, record) VALUES (?, ?, 'SPAN', 'default', 'DEFAULT', ?, ?, ?, ?)").run(id, traceId, at, at, at, JSON.stringify(record));
    }
    db.exec('PRAGMA user_version = 3');
    db.close();

    const { store } = Store.open({ dataDir: dir, now });
    const ids = (cursor?: { startTime: string; traceId: string; id: string }) => store.read((tx) => tx.observations.page({}, cursor, 10).map((o) => o.id));
    // xxHash32('') (no trace) is 0x02cc5d05, below the others.
    expect(ids()).toEqual(['o3', 'o2', 'o4', 'o1', 'o5']);
    expect(ids({ startTime: at, traceId: 'beta', id: 'o2' })).toEqual(['o4', 'o1', 'o5']);
    store.close();
  });

  it('fills each model\'s last use from the generations of a store that still has to move its observations (schema 3)', () => {
    const { dir, db } = schema3Store();
    const rows: Array<[string, string, string | null, string]> = [
      ['g1', 'GENERATION', 'model-a', '2026-03-01T10:00:00.000Z'],
      ['g2', 'GENERATION', 'model-a', '2026-03-02T09:00:00.000Z'],
      ['g3', 'GENERATION', 'model-b', '2026-02-01T00:00:00.000Z'],
      ['g4', 'GENERATION', null, '2026-04-01T00:00:00.000Z'],
      ['s1', 'SPAN', 'model-c', '2026-04-01T00:00:00.000Z'],
    ];
    for (const [id, type, model, at] of rows) {
      db.prepare("INSERT INTO observations (id, trace_id, type, environment, level, start_time, internal_model_id, created_at, updated_at, record) VALUES (?, 't', ?, 'default', 'DEFAULT', ?, ?, ?, ?, ?)").run(id, type, at, model, at, at, JSON.stringify({ id, traceId: 't', type, startTime: at, internalModelId: model }));
    }
    db.exec('PRAGMA user_version = 3');
    db.close();

    const { store } = Store.open({ dataDir: dir, now });
    expect(store.read((tx) => tx.models.lastUsed())).toEqual(new Map([['model-a', '2026-03-02T09:00:00.000Z'], ['model-b', '2026-02-01T00:00:00.000Z']]));
    expect(store.read((tx) => tx.observations.count())).toBe(rows.length);
    store.close();
  });

  it('refuses a database of a newer schema', () => {
    const dir = tempDir();
    const Database = createRequire(import.meta.url)('libsql');
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => Store.open({ dataDir: dir, now })).toThrow(/schema version \d+; this llmobs knows versions up to/);
  });
});
