// The models' "Last used" kept at ingestion: the latest start time of a generation priced with
// each model, moved forward request by request, and equal to what migration 7 computes from the
// observations of the same store.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ModelDefinition } from '../../../../src/core/models/types.js';
import { projectDefinitions } from '../../../../src/server/handlers/models.js';
import { ingestEvents } from '../../../../src/server/ingest/routes.js';
import type { ModelRecord } from '../../../../src/server/records.js';
import { DATABASE_FILE, ModelStore, Store } from '../../../../src/server/store/index.js';
import { MIGRATIONS } from '../../../../src/server/store/migrations.js';
import { tempDir } from '../../../helpers/cli.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const ts = (minute: number) => new Date(Date.UTC(2026, 10, 23, 10, minute)).toISOString();
let n = 0;
const event = (type: string, body: Record<string, unknown>) => ({ id: `e${n++}`, type, timestamp: body.startTime ?? ts(0), body });
const generation = (id: string, model: string | undefined, minute: number) => event('generation-create', { id, traceId: 't', model, startTime: ts(minute) });

function idOf(store: Store, name: string): string {
  return store.read((tx) => tx.observations.get(name)?.internalModelId) ?? '';
}

describe('model use at ingestion', () => {
  it('keeps the latest generation start per model, and nothing for spans, unmatched names or no model', () => {
    const { store } = Store.open({ now: () => NOW });
    const auth = { projectId: store.project.id, accessLevel: 'project' as const };
    const lastUsed = () => Object.fromEntries(store.read((tx) => tx.models.lastUsed()));
    store.write((tx) =>
      ingestEvents([generation('a1', 'gpt-4o', 5), generation('a2', 'gpt-4o', 7), generation('b1', 'gpt-4o-mini', 3), event('span-create', { id: 's1', traceId: 't', model: 'claude-3-haiku', startTime: ts(9) }), generation('u1', 'no-such-model', 9), generation('n1', undefined, 9)], tx, auth, NOW),
    );
    const gpt4o = idOf(store, 'a1');
    const mini = idOf(store, 'b1');
    expect(gpt4o).not.toBe('');
    expect(lastUsed()).toEqual({ [gpt4o]: ts(7), [mini]: ts(3) });
    // An earlier generation does not move it back; a later one moves it on.
    store.write((tx) => ingestEvents([generation('a3', 'gpt-4o', 1), generation('b2', 'gpt-4o-mini', 20)], tx, auth, NOW));
    expect(lastUsed()).toEqual({ [gpt4o]: ts(7), [mini]: ts(20) });
    // A generation that gets its model in an update counts from that update.
    store.write((tx) => ingestEvents([event('generation-update', { id: 'n1', traceId: 't', model: 'gpt-4o' })], tx, auth, NOW));
    expect(lastUsed()).toEqual({ [gpt4o]: ts(9), [mini]: ts(20) });
    store.close();
  });

  it('matches what migration 7 computes from the stored observations', () => {
    const dir = tempDir();
    const { store } = Store.open({ dataDir: dir, now: () => NOW });
    const auth = { projectId: store.project.id, accessLevel: 'project' as const };
    for (let batch = 0; batch < 5; batch++) {
      store.write((tx) => ingestEvents(Array.from({ length: 20 }, (_, i) => generation(`g${batch}-${i}`, ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet-20241022', 'text-embedding-3-small'][(i * 7 + batch) % 4], (i * 13 + batch * 5) % 60)), tx, auth, NOW));
    }
    const kept = store.read((tx) => tx.models.lastUsed());
    expect(kept.size).toBe(4);
    store.close();
    const Database = createRequire(import.meta.url)('libsql');
    const db = new Database(join(dir, DATABASE_FILE));
    // Migration 7 run again over the stored observations (later migrations left as they are).
    db.exec('DROP TABLE model_use');
    const migration7 = MIGRATIONS[6]!;
    if (typeof migration7 === 'string') db.exec(migration7);
    else migration7(db);
    db.close();
    const reopened = Store.open({ dataDir: dir, now: () => NOW }).store;
    expect(reopened.read((tx) => tx.models.lastUsed())).toEqual(kept);
    reopened.close();
  });
});

describe('the definitions ingestion matches with', () => {
  it('are read again only after a definition is written, and then match at once', () => {
    const { store } = Store.open({ now: () => NOW });
    const auth = { projectId: store.project.id, accessLevel: 'project' as const };
    const reads = vi.spyOn(ModelStore.prototype, 'allTexts');
    store.write((tx) => ingestEvents([generation('c1', 'my-model', 1)], tx, auth, NOW));
    const first = reads.mock.calls.length;
    store.write((tx) => ingestEvents([generation('c2', 'my-model', 2)], tx, auth, NOW));
    store.write((tx) => ingestEvents([generation('c3', 'my-model', 3)], tx, auth, NOW));
    expect(reads.mock.calls.length).toBe(first);
    expect(idOf(store, 'c3')).toBe('');

    const id = 'custom-my-model';
    const record: ModelRecord = { id, projectId: store.project.id, modelName: 'my-model', matchPattern: '(?i)^(my-model)$', startDate: null, unit: 'TOKENS', inputPrice: 0.000001, outputPrice: 0.000002, totalPrice: null, tokenizerId: null, tokenizerConfig: null, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), pricingTiers: [] };
    store.write((tx) => tx.models.put(record));
    store.write((tx) => ingestEvents([generation('c4', 'my-model', 4)], tx, auth, NOW));
    expect(idOf(store, 'c4')).toBe(id);
    expect(reads.mock.calls.length).toBeGreaterThan(first);

    const again = reads.mock.calls.length;
    store.write((tx) => tx.models.delete(id));
    store.write((tx) => ingestEvents([generation('c5', 'my-model', 5)], tx, auth, NOW));
    expect(idOf(store, 'c5')).toBe('');
    expect(reads.mock.calls.length).toBeGreaterThan(again);
    reads.mockRestore();
    store.close();
  });

  it('are made again only for the definitions written since they were read', () => {
    const { store } = Store.open({ now: () => NOW });
    const record = (id: string, name: string, inputPrice: number): ModelRecord => ({ id, projectId: store.project.id, modelName: name, matchPattern: `(?i)^(${name})$`, startDate: null, unit: 'TOKENS', inputPrice, outputPrice: null, totalPrice: null, tokenizerId: null, tokenizerConfig: null, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString(), pricingTiers: [] });
    store.write((tx) => {
      tx.models.put(record('a', 'model-a', 1));
      tx.models.put(record('b', 'model-b', 2));
    });
    const before = store.read((tx) => projectDefinitions(tx));
    store.write((tx) => {
      tx.models.put(record('b', 'model-b', 3));
      tx.models.put(record('c', 'model-c', 4));
    });
    const after = store.read((tx) => projectDefinitions(tx));
    expect(after).not.toBe(before);
    const own = (list: readonly ModelDefinition[]) => list.filter((d) => !d.isLangfuseManaged);
    expect(own(after).map((d) => [d.id, d.inputPrice])).toEqual([['a', 1], ['b', 3], ['c', 4]]);
    // The unchanged definition is the one made before; the rewritten one is made anew.
    expect(own(after)[0]).toBe(own(before)[0]);
    expect(own(after)[1]).not.toBe(own(before)[1]);

    // A write rolled back leaves no definition behind.
    expect(() =>
      store.write((tx) => {
        tx.models.put(record('d', 'model-d', 5));
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(own(store.read((tx) => projectDefinitions(tx))).map((d) => d.id)).toEqual(['a', 'b', 'c']);
    store.close();
  });
});
