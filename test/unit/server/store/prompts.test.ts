// Prompt versions in the store: tags set on every version at once, and versions deleted together.
import { describe, expect, it } from 'vitest';
import type { PromptRecord } from '../../../../src/server/records.js';
import { Store } from '../../../../src/server/store/index.js';
import { promptRecord } from '../../../helpers/store-records.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');

function seeded(): { store: Store; versions: PromptRecord[] } {
  const { store } = Store.open({ now: () => NOW });
  const versions = [
    promptRecord({ id: 'v1', name: 'p', version: 1, tags: ['old'], labels: ['production'], config: { temperature: 1.5, big: 12345678901234567000, note: 'é\u2028"q' } }),
    promptRecord({ id: 'v2', name: 'p', version: 2, tags: ['old', 'other'], labels: ['latest'], prompt: 'second' }),
    promptRecord({ id: 'w1', name: 'q', version: 1, tags: ['old'] }),
  ];
  store.write((tx) => {
    for (const v of versions) tx.prompts.insert(v, []);
  });
  return { store, versions };
}

describe('the prompt store', () => {
  it('sets the tags of every version of a prompt, each record as if rewritten whole, and their index', () => {
    const { store, versions } = seeded();
    const at = '2026-11-23T13:00:00.000Z';
    store.write((tx) => tx.prompts.retag('p', ['new', 'x', 'new'], at));
    const read = store.read((tx) => tx.prompts.versions('p'));
    // Key order and values as JSON.stringify({ ...row, tags, updatedAt }) would write them.
    expect(read.map((r) => JSON.stringify(r))).toEqual(versions.slice(0, 2).map((v) => JSON.stringify({ ...v, tags: ['new', 'x'], updatedAt: at })));
    const tagged = (tag: string) => store.read((tx) => tx.prompts.list({ tag }, { limit: 10, offset: 0 }).rows.map((r) => r.id));
    expect(tagged('new')).toEqual(['v1', 'v2']);
    expect(tagged('x')).toEqual(['v1', 'v2']);
    expect(tagged('old')).toEqual(['w1']);
    expect(tagged('other')).toEqual([]);
    store.close();
  });

  it('deletes versions together, with their labels and tags', () => {
    const { store } = seeded();
    store.write((tx) => tx.prompts.delete(['v1', 'v2', 'missing']));
    expect(store.read((tx) => tx.prompts.versions('p'))).toEqual([]);
    expect(store.read((tx) => tx.prompts.withLabel('p', 'production'))).toBeUndefined();
    expect(store.read((tx) => tx.prompts.list({ tag: 'old' }, { limit: 10, offset: 0 }).rows.map((r) => r.id))).toEqual(['w1']);
    store.close();
  });
});
