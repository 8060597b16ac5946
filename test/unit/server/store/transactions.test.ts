// Writes that share a commit: each in its own savepoint, each answered after the commit that holds it.
import { describe, expect, it } from 'vitest';
import { Store } from '../../../../src/server/store/index.js';
import { openSqlite } from '../../../../src/server/store/sqlite.js';
import { GroupCommit } from '../../../../src/server/store/transactions.js';
import { tempDir } from '../../../helpers/cli.js';
import { traceRecord } from '../../../helpers/store-records.js';

function database() {
  const db = openSqlite(undefined);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  const ids = () => (db.prepare('SELECT id FROM t ORDER BY id').raw().all() as number[][]).map(([id]) => id);
  return { db, insert, ids };
}

describe('GroupCommit', () => {
  it('writes that arrive in one turn share one transaction, and each resolves only after its commit', async () => {
    const { db, insert, ids } = database();
    const group = new GroupCommit(db);
    const settled: number[] = [];
    const first = group.write(() => insert.run([1, 'a']) && 1).then((n) => settled.push(n));
    const second = group.write(() => insert.run([2, 'b']) && 2).then((n) => settled.push(n));
    // Both are written in the one open transaction, which is not committed yet.
    expect(db.inTransaction).toBe(true);
    await Promise.resolve();
    expect(settled).toEqual([]);
    await Promise.all([first, second]);
    expect(settled).toEqual([1, 2]);
    expect(db.inTransaction).toBe(false);
    expect(ids()).toEqual([1, 2]);
  });

  it('a write that throws is rolled back alone; its neighbours are committed', async () => {
    const { db, insert, ids } = database();
    const group = new GroupCommit(db);
    const kept = group.write(() => insert.run([1, 'a']));
    const failed = group.write(() => {
      insert.run([2, 'b']);
      insert.run([1, 'again']); // the primary key refuses it
    });
    const after = group.write(() => insert.run([3, 'c']));
    await expect(failed).rejects.toThrow(/UNIQUE/);
    await kept;
    await after;
    expect(ids()).toEqual([1, 3]);
  });

  it('a commit that fails rejects every write of its group, and none of them is stored', async () => {
    const { db, ids } = database();
    db.exec('PRAGMA foreign_keys = ON; CREATE TABLE child (parent INTEGER REFERENCES t (id) DEFERRABLE INITIALLY DEFERRED)');
    const group = new GroupCommit(db);
    const fine = group.write(() => db.prepare('INSERT INTO t (id, v) VALUES (1, ?)').run(['a']));
    // A deferred foreign key is checked at the commit only.
    const orphan = group.write(() => db.prepare('INSERT INTO child (parent) VALUES (42)').run());
    await expect(fine).rejects.toThrow(/FOREIGN KEY/);
    await expect(orphan).rejects.toThrow(/FOREIGN KEY/);
    expect(db.inTransaction).toBe(false);
    expect(ids()).toEqual([]);
  });

  it('refuses an asynchronous function, and stores nothing of it', async () => {
    const { db, insert, ids } = database();
    const group = new GroupCommit(db);
    await expect(group.write(() => (insert.run([1, 'a']), Promise.resolve()))).rejects.toThrow(/synchronous/);
    group.commit();
    expect(ids()).toEqual([]);
  });
});

describe('Store.writeGrouped', () => {
  it('another transaction commits the open group first, and the data is there after a reopen', async () => {
    const dir = tempDir();
    const now = () => new Date('2026-11-23T00:00:00Z');
    const { store } = Store.open({ dataDir: dir, now });
    const written = store.writeGrouped((tx) => tx.traces.put(traceRecord('t1')));
    // A read in the same turn sees the grouped write: it was committed before the read began.
    expect(store.read((tx) => tx.traces.get('t1')?.id)).toBe('t1');
    await written;
    store.close();
    const reopened = Store.open({ dataDir: dir, now }).store;
    expect(reopened.read((tx) => tx.traces.get('t1')?.id)).toBe('t1');
    reopened.close();
  });
});
