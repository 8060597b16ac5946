// The server's store: the database in the data directory, its lock, and one transaction per request.
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE, LEGACY_LOCK_FILE, SERVER_INFO_FILE, Store } from '../../../../src/server/store/index.js';
import { openSqlite } from '../../../../src/server/store/sqlite.js';
import { startServer } from '../../../../src/server/index.js';
import { tempDir } from '../../../helpers/cli.js';
import { promptRecord, traceRecord } from '../../../helpers/store-records.js';
import { apiCaller } from '../../../helpers/server-api.js';

const now = () => new Date('2026-11-23T00:00:00Z');
const call = apiCaller(() => {
  throw new Error('pass a target');
});

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

  it('takes nothing from the environment into its SQL', () => {
    const dir = tempDir();
    const saved = process.env.SP_PAGE;
    // A variable an earlier build read into its PRAGMAs: SQL in it must not run.
    process.env.SP_PAGE = '4096; CREATE TABLE injected(x)';
    try {
      Store.open({ dataDir: dir, now }).store.close();
    } finally {
      if (saved === undefined) delete process.env.SP_PAGE;
      else process.env.SP_PAGE = saved;
    }
    const db = openSqlite(join(dir, DATABASE_FILE));
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'injected'").all();
    db.close();
    expect(tables).toEqual([]);
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
        tx.prompts.insert(promptRecord({ id: 'p1', labels: ['latest'] }), []);
        tx.traces.put(traceRecord('t1'));
        throw new Error('validation failed late');
      }),
    ).toThrow('validation failed late');
    store.read((tx) => {
      expect(tx.prompts.newest('greeting')).toBeUndefined();
      expect(tx.traces.get('t1')).toBeUndefined();
    });
    store.write((tx) => tx.prompts.insert(promptRecord({ id: 'p1', labels: ['latest'] }), []));
    expect(store.read((tx) => tx.prompts.newest('greeting')?.id)).toBe('p1');
    store.close();
  });

  it('keeps each label on one version: a second holder is refused by the database', () => {
    const { store } = Store.open({ now });
    store.write((tx) => tx.prompts.insert(promptRecord({ id: 'a', version: 1, labels: ['production'] }), []));
    expect(() => store.write((tx) => tx.prompts.insert(promptRecord({ id: 'b', version: 2, labels: ['production'] }), []))).toThrow(/UNIQUE/);
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
      for (const id of ['a', 'b']) tx.traces.put(traceRecord(id), { events: [] });
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
