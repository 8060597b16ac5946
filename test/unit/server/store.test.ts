import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileError } from '../../../src/errors.js';
import { DataStore, LOCK_FILE, STATE_FILE } from '../../../src/server/store.js';
import { tempDir } from '../../helpers/cli.js';

const now = () => new Date('2026-11-23T00:00:00Z');

describe('DataStore', () => {
  it('creates a project and keys once, and finds them again after a restart', async () => {
    const dir = tempDir();
    const first = DataStore.open({ dataDir: dir, now });
    expect(first.created).toBe(true);
    const keys = first.store.state.apiKeys;
    await first.store.mutate((state) => {
      state.project.metadata = { touched: true };
    });
    await first.store.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(statSync(join(dir, STATE_FILE)).mode & 0o777).toBe(0o600);

    const second = DataStore.open({ dataDir: dir, now });
    expect(second.created).toBe(false);
    expect(second.store.state.apiKeys).toEqual(keys);
    expect(second.store.state.project.metadata).toEqual({ touched: true });
    await second.store.close();
  });

  it('refuses a second store on the same directory while the first holds it', async () => {
    const dir = tempDir();
    const first = DataStore.open({ dataDir: dir, now });
    expect(() => DataStore.open({ dataDir: dir, now })).toThrow(/in use by another llmobs server \(pid \d+/);
    await first.store.close();
    const again = DataStore.open({ dataDir: dir, now });
    await again.store.close();
  });

  it('takes over the lock of a process that died', async () => {
    const dir = tempDir();
    (await DataStore.open({ dataDir: dir, now }).store.close());
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, startedAt: 'x' }));
    const store = DataStore.open({ dataDir: dir, now });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await store.store.close();
  });

  it('never leaves a half-written state: every write replaces the file whole', async () => {
    const dir = tempDir();
    const { store } = DataStore.open({ dataDir: dir, now });
    const writes = Array.from({ length: 50 }, (_, i) =>
      store.mutate((state) => {
        state.project.metadata = { n: i, pad: 'x'.repeat(10_000) };
      }),
    );
    // While writes are in flight the file on disk is always complete JSON.
    for (let i = 0; i < 20; i++) {
      JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8'));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    expect(JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')).project.metadata.n).toBe(49);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await store.close();
  });

  it('leaves a corrupt state file untouched and says so', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, STATE_FILE), '{"schemaVersion": 1, "proj');
    expect(() => DataStore.open({ dataDir: dir, now })).toThrow(FileError);
    expect(readFileSync(join(dir, STATE_FILE), 'utf8')).toBe('{"schemaVersion": 1, "proj');
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
