// Prompt versions in the store: tags set on every version at once, versions deleted together, and
// the list's entries from the versions' index rows.
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
    const tagged = (tag: string) => store.read((tx) => tx.prompts.list({ tag }, { limit: 10, offset: 0 }).groups.flatMap((g) => g.versions.map((v) => `${g.name}@${v}`)));
    expect(tagged('new')).toEqual(['p@1', 'p@2']);
    expect(tagged('x')).toEqual(['p@1', 'p@2']);
    expect(tagged('old')).toEqual(['q@1']);
    expect(tagged('other')).toEqual([]);
    store.close();
  });

  it('deletes versions together, with their labels and tags', () => {
    const { store } = seeded();
    store.write((tx) => tx.prompts.delete(['v1', 'v2', 'missing']));
    expect(store.read((tx) => tx.prompts.versions('p'))).toEqual([]);
    expect(store.read((tx) => tx.prompts.withLabel('p', 'production'))).toBeUndefined();
    expect(store.read((tx) => tx.prompts.list({ tag: 'old' }, { limit: 10, offset: 0 }).groups.map((g) => g.newest.id))).toEqual(['w1']);
    store.close();
  });
});

describe('the prompts list', () => {
  it('gives each name on the page its matching versions with their labels, tags and times, and the newest record', () => {
    const { store, versions } = seeded();
    const page = store.read((tx) => tx.prompts.list({}, { limit: 10, offset: 0 }));
    expect(page.totalNames).toBe(2);
    expect(page.groups).toEqual([
      { name: 'p', versions: [1, 2], labels: [['production'], ['latest']], tags: [['old'], ['old', 'other']], updatedAts: [versions[0]!.updatedAt, versions[1]!.updatedAt], newest: versions[1] },
      { name: 'q', versions: [1], labels: [[]], tags: [['old']], updatedAts: [versions[2]!.updatedAt], newest: versions[2] },
    ]);
    // Filters pick versions: the newest is the newest that matches.
    const production = store.read((tx) => tx.prompts.list({ label: 'production' }, { limit: 10, offset: 0 }));
    expect(production.groups.map((g) => [g.name, g.versions, g.newest.id])).toEqual([['p', [1], 'v1']]);
    expect(store.read((tx) => tx.prompts.list({}, { limit: 1, offset: 1 })).groups.map((g) => g.name)).toEqual(['q']);
    store.close();
  });
});

describe("a page of one prompt's versions", () => {
  it('gives the version numbers below a version, highest first, with their stored sizes, the count and the labels', () => {
    const { store } = seeded();
    store.write((tx) => tx.prompts.insert(promptRecord({ id: 'v3', name: 'p', version: 3, labels: ['staging'], prompt: 'x'.repeat(1000) }), []));
    const sizes = store.read((tx) => tx.prompts.versionSizes('p', undefined, 2));
    expect(sizes.map((s) => s.version)).toEqual([3, 2]);
    const stored = store.read((tx) => tx.prompts.versions('p'));
    expect(sizes.map((s) => s.bytes)).toEqual([3, 2].map((v) => Buffer.byteLength(JSON.stringify(stored.find((r) => r.version === v)))));
    expect(store.read((tx) => tx.prompts.versionSizes('p', 3, 10)).map((s) => s.version)).toEqual([2, 1]);
    expect(store.read((tx) => tx.prompts.versionSizes('p', 1, 10))).toEqual([]);
    expect(store.read((tx) => tx.prompts.versionSizes('nope', undefined, 10))).toEqual([]);
    expect(store.read((tx) => [tx.prompts.versionCount('p'), tx.prompts.versionCount('q'), tx.prompts.versionCount('nope')])).toEqual([3, 1, 0]);
    expect(store.read((tx) => tx.prompts.labelHolders('p'))).toEqual([
      { label: 'latest', version: 2 },
      { label: 'production', version: 1 },
      { label: 'staging', version: 3 },
    ]);
    expect(store.read((tx) => tx.prompts.labelHolders('nope'))).toEqual([]);
    store.close();
  });
});
