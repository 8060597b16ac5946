// The v2 list reads input, output and metadata as stored JSON text (ObservationStore.pageRows,
// withStoredTexts) where every other read parses the whole record (observationFromRow). Both must
// give the same v2 objects, byte for byte once written, for rows written now (the large parts in
// columns of their own) and rows written before version 8 (everything in `data`), and a record
// must read back as it was put either way.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBSERVATION_FIELD_GROUPS, observationV2, withStoredTexts } from '../../../../src/server/handlers/observation-view.js';
import type { ObservationRecord } from '../../../../src/server/records.js';
import { join } from 'node:path';
import { DATABASE_FILE, Store } from '../../../../src/server/store/index.js';
import { type Database, openSqlite } from '../../../../src/server/store/sqlite.js';
import { tempDir } from '../../../helpers/cli.js';
import { observationRecord } from '../../../helpers/store-records.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
let store: Store;
/** A second connection to the store's file, to write rows as an older version did. */
let db: Database;
let projectId: string;

beforeAll(() => {
  const dir = tempDir('llmobs-observation-row-');
  store = Store.open({ dataDir: dir, now: () => NOW }).store;
  db = openSqlite(join(dir, DATABASE_FILE));
  projectId = store.project.id;
});
afterAll(() => {
  db.close();
  store.close();
});

const HUGE = 'x'.repeat(300_000);

function record(id: string, fields: Partial<Record<keyof ObservationRecord, unknown>> = {}): ObservationRecord {
  return observationRecord(id, projectId, '2026-03-01T10:00:00.000Z', {
    traceId: 'trace-1',
    type: 'GENERATION',
    name: 'llm',
    endTime: '2026-03-01T10:00:01.500Z',
    input: [{ role: 'user', content: 'hi' }],
    output: 'hello',
    metadata: { a: '1' },
    providedModelName: 'gpt-4o',
    usageDetails: { input: 3, output: 1, total: 4 },
    createdAt: '2026-03-01T10:00:02.000Z',
    updatedAt: '2026-03-01T10:00:02.000Z',
    ...fields,
  });
}

/** Records chosen for their edges: nulls, absent fields, strings that look like JSON, unicode, huge values. */
const CASES: ObservationRecord[] = [
  record('plain'),
  record('nulls', { input: null, output: null, metadata: {}, traceId: null, name: null, endTime: null }),
  record('strings', { input: '{"looks":"like json"}', output: '"quoted"', metadata: { s: '' } }),
  record('numbers', { input: 0, output: false, metadata: { n: -0.5, big: 1e21, tiny: 5e-324 } }),
  record('unicode', { input: 'héllo 😀 \u2028 \u0000 "q" \\', output: { 'ключ': ['値', '\ud83d\ude00'] }, metadata: { 'é': 'ü', nested: { deep: [1, [2, [3]]] } } }),
  record('huge', { input: { text: HUGE }, output: HUGE, metadata: { long: HUGE, short: 'ok' } }),
  record('arrays', { input: [], output: [null, true, {}], metadata: { list: [] } }),
  record('absent', { input: undefined, output: undefined, metadata: undefined, endTime: undefined, version: undefined }),
  record('unknown-field', { extra: { kept: true } } as never),
  record('other-project', { projectId: 'another' }),
];

/** Moves a row's large parts back into `data`, as a row written before version 8 keeps them. */
function asOldRow(id: string): void {
  db.prepare(
    `UPDATE observations SET
       data = json_patch(data, json_object(
         'i', CASE WHEN input_json IS NULL THEN NULL ELSE json(input_json) END,
         'o', CASE WHEN output_json IS NULL THEN NULL ELSE json(output_json) END,
         'm', CASE WHEN metadata_json IS NULL THEN NULL ELSE json(metadata_json) END)),
       input_json = NULL, output_json = NULL, metadata_json = NULL
     WHERE id = ?`,
  ).run(id);
}

/** The v2 objects of every stored observation, by both reads, as JSON text. */
function bothWays(groups: (typeof OBSERVATION_FIELD_GROUPS)[number][]): { parsed: string[]; texts: string[] } {
  return store.read((tx) => {
    const rows = tx.observations.pageRows({}, undefined, 1000);
    return {
      parsed: rows.map(({ record }) => JSON.stringify(observationV2(tx.observations.get(record.id)!, groups, undefined, undefined))),
      texts: rows.map(({ record, texts }) => JSON.stringify(observationV2(withStoredTexts(record, texts), groups, undefined, undefined))),
    };
  });
}

describe('observation rows: the large parts as stored text', () => {
  it('give the same v2 objects as the parsed record, for rows of now and of before, and read back as put', () => {
    const written = new Map<string, ObservationRecord>();
    store.write((tx) => {
      for (const c of CASES) {
        tx.observations.put(c);
        tx.observations.put({ ...c, id: `${c.id}-old` });
        written.set(c.id, c).set(`${c.id}-old`, { ...c, id: `${c.id}-old` });
      }
    });
    for (const c of CASES) asOldRow(`${c.id}-old`);
    const { parsed, texts } = bothWays([...OBSERVATION_FIELD_GROUPS]);
    expect(texts).toHaveLength(CASES.length * 2);
    expect(texts).toEqual(parsed);
    store.read((tx) => {
      for (const [id, put] of written) {
        // JSON holds no undefined: an absent field stays absent. The fields keep their order.
        const got = tx.observations.get(id)!;
        expect(got).toEqual(JSON.parse(JSON.stringify(put)));
        expect(Object.keys(got)).toEqual(Object.keys(JSON.parse(JSON.stringify(put))));
      }
    });
    // The new rows keep their large parts out of `data`; the old ones in it.
    const plain = db.prepare("SELECT data, input_json, output_json, metadata_json FROM observations WHERE id = 'plain'").get() as Record<string, unknown>;
    expect(plain).toMatchObject({ input_json: '[{"role":"user","content":"hi"}]', output_json: '"hello"', metadata_json: '{"a":"1"}' });
    expect(JSON.parse(plain['data'] as string)).not.toHaveProperty('i');
    const old = db.prepare("SELECT data, input_json FROM observations WHERE id = 'plain-old'").get() as Record<string, unknown>;
    expect(old['input_json']).toBeNull();
    expect(JSON.parse(old['data'] as string)).toMatchObject({ i: [{ role: 'user', content: 'hi' }], o: 'hello', m: { a: '1' } });
  });

  it('give the same v2 objects for any input, output and metadata (property)', () => {
    const json = fc.jsonValue();
    fc.assert(
      fc.property(fc.array(fc.record({ input: fc.option(json), output: fc.option(json), metadata: fc.dictionary(fc.string(), json) }), { minLength: 1, maxLength: 5 }), fc.boolean(), (parts, old) => {
        // Each run replaces the rows of the one before (a put is an upsert, written as of now).
        const ids = parts.map((_, i) => `p${i}`);
        store.write((tx) => parts.forEach((p, i) => tx.observations.put(record(ids[i]!, p))));
        if (old) ids.forEach(asOldRow);
        const { parsed, texts } = bothWays(['core', 'io', 'metadata']);
        expect(texts).toEqual(parsed);
      }),
      { numRuns: 50 },
    );
  });
});
