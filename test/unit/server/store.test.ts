// The server's store: the database in the data directory, its lock, migrations, the import of a
// state file from servers before the database, and one transaction per request.
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileError } from '../../../src/errors.js';
import type { PromptRecord, TraceRecord } from '../../../src/server/records.js';
import { STATE_FILE } from '../../../src/server/state.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/server/store/migrations.js';
import { DATABASE_FILE, LEGACY_LOCK_FILE, SERVER_INFO_FILE, STATE_BACKUP_FILE, Store } from '../../../src/server/store/index.js';
import { startServer } from '../../../src/server/index.js';
import { tempDir } from '../../helpers/cli.js';
import { apiCaller } from '../../helpers/server-api.js';

const now = () => new Date('2026-11-23T00:00:00Z');
const call = apiCaller(() => {
  throw new Error('pass a target');
});

function prompt(overrides: Partial<PromptRecord>): PromptRecord {
  return {
    id: `id-${Math.random().toString(36).slice(2)}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    projectId: 'proj-old',
    createdBy: 'API',
    prompt: 'hello',
    name: 'greeting',
    version: 1,
    type: 'text',
    isActive: null,
    config: {},
    tags: [],
    labels: [],
    commitMessage: null,
    ...overrides,
  };
}

/** A state file as servers before the database wrote it (schema 1). */
function legacyState(extra: Record<string, unknown> = {}) {
  return {
    schemaVersion: 1,
    project: { id: 'proj-old', name: 'llmobs-local', organization: { id: 'org-old', name: 'llmobs local' }, metadata: { from: 'state' }, createdAt: '2026-01-01T00:00:00.000Z' },
    apiKeys: [{ id: 'key-1', publicKey: 'pk-lf-old', secretKey: 'sk-lf-old', createdAt: '2026-01-01T00:00:00.000Z' }],
    ...extra,
  };
}

const oldKeys = { auth: `Basic ${Buffer.from('pk-lf-old:sk-lf-old').toString('base64')}` };

describe('the data directory', () => {
  it('creates a project and keys once, and finds them again after a restart', () => {
    const dir = tempDir();
    const first = Store.open({ dataDir: dir, now });
    expect(first.created).toBe(true);
    const keys = first.store.apiKeys;
    first.store.close();
    expect(existsSync(join(dir, SERVER_INFO_FILE))).toBe(false);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const second = Store.open({ dataDir: dir, now });
    expect(second.created).toBe(false);
    expect(second.store.apiKeys).toEqual(keys);
    second.store.close();
  });

  it('runs the database in WAL mode with synchronous=NORMAL: a commit waits for no fsync', () => {
    const { store } = Store.open({ dataDir: tempDir(), now });
    expect(store.durability()).toEqual({ journalMode: 'wal', synchronous: 'normal' });
    store.close();
  });

  it('refuses a second store on the same directory while the first holds it, and says who holds it', () => {
    const dir = tempDir();
    const first = Store.open({ dataDir: dir, now });
    first.store.recordUrl('http://127.0.0.1:4321');
    expect(() => Store.open({ dataDir: dir, now })).toThrow(new RegExp(`in use by another llmobs server \\(pid ${process.pid}, http://127.0.0.1:4321\\)`));
    first.store.close();
    Store.open({ dataDir: dir, now }).store.close();
  });

  it('is not blocked by pid files that name a live process, pid 1 included (a container restarted)', () => {
    const dir = tempDir();
    Store.open({ dataDir: dir, now }).store.close();
    // What a server killed as PID 1 in a container leaves behind: a pid file of the old kind and
    // an info file, both naming pid 1, which is alive again (the new container's init or server).
    writeFileSync(join(dir, LEGACY_LOCK_FILE), JSON.stringify({ pid: 1, startedAt: '2026-01-01T00:00:00.000Z' }));
    writeFileSync(join(dir, SERVER_INFO_FILE), JSON.stringify({ pid: 1, startedAt: '2026-01-01T00:00:00.000Z' }));
    const reopened = Store.open({ dataDir: dir, now });
    expect(existsSync(join(dir, LEGACY_LOCK_FILE))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, SERVER_INFO_FILE), 'utf8')).pid).toBe(process.pid);
    reopened.store.close();
  });

  it('keeps the files that hold the keys to their owner (0600), in a directory others may read too', () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const previous = process.umask(0o022);
    try {
      const { store } = Store.open({ dataDir: dir, now });
      store.write((tx) => tx.project.get());
      const modes = () => Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]));
      expect(modes()).toMatchObject({ [DATABASE_FILE]: '600', [`${DATABASE_FILE}-wal`]: '600', [`${DATABASE_FILE}-shm`]: '600', 'llmobs.lock': '600' });
      expect(Object.values(modes())).toEqual(Object.values(modes()).map(() => '600'));
      store.close();
      // A database an earlier version left readable by others is narrowed at the next start.
      chmodSync(join(dir, DATABASE_FILE), 0o644);
      Store.open({ dataDir: dir, now }).store.close();
      expect((statSync(join(dir, DATABASE_FILE)).mode & 0o777).toString(8)).toBe('600');
    } finally {
      process.umask(previous);
    }
  });

  it('refuses a file that is not a database, and leaves it untouched', () => {
    const dir = tempDir();
    writeFileSync(join(dir, DATABASE_FILE), 'not a database at all, just text that is long enough to have a header');
    expect(() => Store.open({ dataDir: dir, now })).toThrow(/is not a llmobs database/);
    expect(readFileSync(join(dir, DATABASE_FILE), 'utf8')).toMatch(/^not a database/);
  });
});

describe('transactions', () => {
  it('rolls back everything a request wrote when it fails', () => {
    const { store } = Store.open({ now });
    expect(() =>
      store.write((tx) => {
        tx.prompts.insert(prompt({ id: 'p1', labels: ['latest'] }), []);
        tx.traces.put(trace('t1'));
        throw new Error('validation failed late');
      }),
    ).toThrow('validation failed late');
    store.read((tx) => {
      expect(tx.prompts.newest('greeting')).toBeUndefined();
      expect(tx.traces.get('t1')).toBeUndefined();
    });
    store.write((tx) => tx.prompts.insert(prompt({ id: 'p1', labels: ['latest'] }), []));
    expect(store.read((tx) => tx.prompts.newest('greeting')?.id)).toBe('p1');
    store.close();
  });

  it('keeps each label on one version: a second holder is refused by the database', () => {
    const { store } = Store.open({ now });
    store.write((tx) => tx.prompts.insert(prompt({ id: 'a', version: 1, labels: ['production'] }), []));
    expect(() => store.write((tx) => tx.prompts.insert(prompt({ id: 'b', version: 2, labels: ['production'] }), []))).toThrow(/UNIQUE/);
    expect(store.read((tx) => tx.prompts.versions('greeting').map((row) => row.id))).toEqual(['a']);
    store.close();
  });

  it('de-duplicates ingested event ids and looks records up in one statement each, for any number of ids', () => {
    const { store } = Store.open({ now });
    const ids = Array.from({ length: 1500 }, (_, i) => `event-${i}`);
    expect(store.write((tx) => tx.events.record(ids.slice(0, 1000), '2026-01-01T00:00:00.000Z'))).toBe(1000);
    expect(store.write((tx) => tx.events.record(ids, '2026-01-01T00:00:00.000Z'))).toBe(500);
    expect(store.read((tx) => tx.events.seen([...ids, 'other', "it's \"quoted\""]).size)).toBe(1500);
    expect(store.read((tx) => [tx.events.has('event-7'), tx.events.has('nope'), tx.events.seen([]).size])).toEqual([true, false, 0]);
    store.write((tx) => {
      for (const id of ['a', 'b']) tx.traces.put(trace(id), { events: [] });
    });
    expect([...store.read((tx) => tx.traces.withEvents(['b', 'x', 'a'])).keys()].sort()).toEqual(['a', 'b']);
    store.close();
  });

  it('refuses an asynchronous transaction function and a nested transaction', () => {
    const { store } = Store.open({ now });
    expect(() => store.write(async () => 1)).toThrow(/synchronous/);
    expect(() => store.read(() => store.read(() => 1))).toThrow(/do not nest/);
    expect(store.read(() => 2)).toBe(2);
    store.close();
  });
});

function trace(id: string): TraceRecord {
  return {
    id,
    projectId: 'p',
    timestamp: '2026-01-01T00:00:00.000Z',
    name: 'demo',
    userId: null,
    sessionId: null,
    release: null,
    version: null,
    environment: 'default',
    public: false,
    bookmarked: false,
    tags: [],
    metadata: {},
    input: null,
    output: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
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
    store.write((tx) => tx.traces.put(trace('after-migration')));
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
    const old = trace('from-v2');
    db.prepare('INSERT INTO traces (id, timestamp, environment, created_at, updated_at, record) VALUES (?, ?, ?, ?, ?, ?)').run(old.id, old.timestamp, old.environment, old.createdAt, old.updatedAt, JSON.stringify(old));
    db.exec('PRAGMA user_version = 2');
    db.close();

    const { store } = Store.open({ dataDir: dir, now });
    expect(store.read((tx) => tx.traces.withEvents(['from-v2', 'missing']))).toEqual(new Map([['from-v2', { record: old, events: null }]]));
    store.write((tx) => tx.traces.put(trace('from-v3'), { events: [{ type: 'trace-create' }] }));
    expect(store.read((tx) => tx.traces.withEvents(['from-v3']).get('from-v3')?.events)).toEqual({ events: [{ type: 'trace-create' }] });
    store.close();
  });

  it('orders the observations of a database of schema 3 by the hash of their trace id once migrated', () => {
    const dir = tempDir();
    const Database = createRequire(import.meta.url)('libsql');
    const db = new Database(join(dir, DATABASE_FILE));
    for (const migration of MIGRATIONS.slice(0, 3)) db.exec(migration);
    db.exec("INSERT INTO project (id, record) VALUES ('proj-v3', '{\"id\":\"proj-v3\",\"name\":\"v3\",\"organization\":{\"id\":\"o\",\"name\":\"o\"},\"metadata\":{},\"createdAt\":\"2026-01-01T00:00:00.000Z\"}')");
    db.exec("INSERT INTO api_keys VALUES ('k', 'pk-lf-v3', 'sk-lf-v3', '2026-01-01T00:00:00.000Z')");
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

  it('refuses a database of a newer schema', () => {
    const dir = tempDir();
    const Database = createRequire(import.meta.url)('libsql');
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => Store.open({ dataDir: dir, now })).toThrow(/schema version \d+; this llmobs knows versions up to/);
  });
});

describe('state files of servers before the database', () => {
  it('imports the project, keys, prompts with their labels and references, and models, and keeps the file as a backup', async () => {
    const dir = tempDir();
    const child = prompt({ id: 'c1', name: 'child', prompt: 'kid', labels: ['production', 'latest'] });
    const v1 = prompt({ id: 'g1', version: 1, labels: ['production'], tags: ['t'] });
    const v2 = prompt({ id: 'g2', version: 2, prompt: 'hi @@@langfusePrompt:name=child|label=production@@@', labels: ['latest'], tags: ['t'] });
    const model = {
      id: 'm1', projectId: 'proj-old', modelName: 'mine', matchPattern: '(?i)^mine$', startDate: null, unit: 'TOKENS', inputPrice: 1, outputPrice: 2, totalPrice: null,
      tokenizerId: null, tokenizerConfig: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
      pricingTiers: [{ id: 'm1_tier_default', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1, output: 2 } }],
    };
    const state = legacyState({
      prompts: [v2, child, v1],
      promptDependencies: [{ id: 'd1', projectId: 'proj-old', parentId: 'g2', childName: 'child', childVersion: null, childLabel: 'production', createdAt: '2026-01-01T00:00:00.000Z' }],
      models: [model],
    });
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(state));

    const server = await startServer({ port: 0, dataDir: dir });
    expect(server).toMatchObject({ created: false, keys: { publicKey: 'pk-lf-old', secretKey: 'sk-lf-old' }, project: { id: 'proj-old' } });
    expect(existsSync(join(dir, STATE_FILE))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, STATE_BACKUP_FILE), 'utf8'))).toEqual(state);
    const got = await call('GET', '/api/public/v2/prompts/greeting?label=latest', undefined, { target: server, ...oldKeys });
    expect(got.body).toMatchObject({ version: 2, prompt: 'hi kid', tags: ['t'], resolutionGraph: { root: { id: 'g2' } } });
    expect((await call('GET', '/api/public/v2/prompts/greeting', undefined, { target: server, ...oldKeys })).body.version).toBe(1);
    expect((await call('DELETE', '/api/public/v2/prompts/child', undefined, { target: server, ...oldKeys, unchecked: true })).status).toBe(400);
    expect((await call('GET', '/api/public/models/m1', undefined, { target: server, ...oldKeys })).body).toMatchObject({ modelName: 'mine', inputPrice: 1 });
    expect((await call('POST', '/api/public/v2/prompts', { name: 'greeting', prompt: 'three' }, { target: server, ...oldKeys })).body.version).toBe(3);
    await server.close();

    // The backup is not imported again: the database is the store now.
    const again = await startServer({ port: 0, dataDir: dir });
    expect((await call('GET', '/api/public/v2/prompts/greeting?label=latest', undefined, { target: again, ...oldKeys })).body.version).toBe(3);
    await again.close();
  });

  it('opens state files written before prompts, references and models existed', async () => {
    const dir = tempDir();
    // Before references were stored, a version's tags were just text: nothing references anything.
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(legacyState({ prompts: [prompt({ id: 'g1', prompt: 'x @@@langfusePrompt:name=gone|version=1@@@', labels: ['latest'] })] })));
    const server = await startServer({ port: 0, dataDir: dir });
    expect((await call('GET', '/api/public/v2/prompts/greeting?label=latest', undefined, { target: server, ...oldKeys })).body).toMatchObject({ resolutionGraph: null });
    expect((await call('GET', '/api/public/models?limit=1', undefined, { target: server, ...oldKeys })).status).toBe(200);
    await server.close();

    const bare = tempDir();
    writeFileSync(join(bare, STATE_FILE), JSON.stringify(legacyState()));
    const empty = await startServer({ port: 0, dataDir: bare });
    expect((await call('GET', '/api/public/v2/prompts', undefined, { target: empty, ...oldKeys })).body.data).toEqual([]);
    expect((await call('POST', '/api/public/v2/prompts', { name: 'fresh', prompt: 'y' }, { target: empty, ...oldKeys })).body.version).toBe(1);
    await empty.close();
  });

  it('leaves a corrupt or foreign state file untouched, creates nothing, and says so', () => {
    for (const text of ['{"schemaVersion": 1, "proj', JSON.stringify({ schemaVersion: 7, project: {} })]) {
      const dir = tempDir();
      writeFileSync(join(dir, STATE_FILE), text);
      expect(() => Store.open({ dataDir: dir, now })).toThrow(FileError);
      expect(readFileSync(join(dir, STATE_FILE), 'utf8')).toBe(text);
      expect(readdirSync(dir)).toEqual([STATE_FILE]);
    }
  });
});

describe('growth', () => {
  const written = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);

  it.skipIf(!existsSync('/proc/self/io'))('writes what a create changes, not the whole store', async () => {
    const server = await startServer({ port: 0, dataDir: tempDir() });
    for (let i = 0; i < 4; i++) {
      expect((await call('POST', '/api/public/v2/prompts', { name: `large-${i}`, prompt: 'x'.repeat(900_000) }, { target: server })).status).toBe(201);
    }
    // 3.6 MB are stored. A small create writes a few pages; the smallest of three leaves out a
    // WAL checkpoint that may fall on one of them.
    const costs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = written();
      expect((await call('POST', '/api/public/v2/prompts', { name: 'small', prompt: `v${i}` }, { target: server })).status).toBe(201);
      costs.push(written() - before);
    }
    expect(Math.min(...costs)).toBeLessThan(256 * 1024);
    await server.close();
  });
});
