// The store's one WHERE builder: what it writes from a filter description, and, over a store in
// memory, the traces and observations lists against a plain filter of the same records.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ObservationRecord, TraceRecord } from '../../../../src/server/records.js';
import { type ColumnFilter, type ObservationFilter, Store, type TraceFilter, type Tx } from '../../../../src/server/store/index.js';
import { type FilterSpec, where } from '../../../../src/server/store/where.js';
import { observationRecord } from '../../../helpers/store-records.js';

describe('where', () => {
  interface Filter {
    name?: string | undefined;
    kinds?: readonly string[] | undefined;
    tags?: readonly string[] | undefined;
    root?: boolean | undefined;
    owner?: string | undefined;
    advanced?: readonly ColumnFilter[] | undefined;
  }
  const SPEC: FilterSpec<Filter> = {
    name: { sql: 'x.name', compare: '=' },
    kinds: { sql: 'x.kind', compare: 'in' },
    tags: { sql: 'x.tags', compare: 'has all' },
    root: { sql: 'x.parent', compare: 'is null' },
    owner: { sql: 'owner', compare: '=', through: { key: 'x.group_id', table: 'groups' } },
  };

  it('writes a condition for each field given, values as parameters, in the order of the description', () => {
    expect(where(SPEC, {})).toEqual({ sql: '', params: [] });
    expect(where(SPEC, { owner: 'u', root: false, name: "it's", kinds: ['a', 'b'], tags: [] })).toEqual({
      sql: "WHERE x.name = ? AND x.kind IN (?, ?) AND x.parent IS NOT NULL AND x.group_id IN (SELECT id FROM groups WHERE owner = ?)",
      params: ["it's", 'a', 'b', 'u'],
    });
    expect(where(SPEC, { tags: ['t', 't', 'u'] }, { sql: '(x.id) < (?)', params: ['c'] })).toEqual({
      sql: 'WHERE (SELECT count(DISTINCT a.value) FROM json_each(x.tags) a WHERE a.value IN (?, ?, ?)) = ? AND (x.id) < (?)',
      params: ['t', 't', 'u', 2, 'c'],
    });
  });

  it('adds the filter parameter’s filters after the fields', () => {
    const advanced: ColumnFilter[] = [{ column: 'trace.name', type: 'string', operator: 'contains', value: 'ch' }];
    expect(where(SPEC, { name: 'x', advanced })).toEqual({ sql: 'WHERE x.name = ? AND (instr(t.name, ?) > 0)', params: ['x', 'ch'] });
  });
});

const T0 = Date.UTC(2026, 2, 1);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const USERS = ['u1', 'u2', null] as const;
const ENVIRONMENTS = ['default', 'production'] as const;
const TAGS = ['a', 'b', 'c'] as const;

const traceSeed = fc.record({
  userId: fc.constantFrom(...USERS),
  environment: fc.constantFrom(...ENVIRONMENTS),
  tags: fc.uniqueArray(fc.constantFrom(...TAGS)),
  minute: fc.integer({ min: 0, max: 100 }),
});
const observationSeed = fc.record({ trace: fc.nat(), parent: fc.boolean(), minute: fc.integer({ min: 0, max: 100 }), environment: fc.constantFrom(...ENVIRONMENTS) });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** What `read` gives over a store in memory holding these records. */
function readStored<T>(traces: TraceRecord[], observations: ObservationRecord[], read: (tx: Tx) => T): T {
  const { store } = Store.open({ now: () => new Date(T0) });
  try {
    store.write((tx) => {
      for (const trace of traces) tx.traces.put(trace);
      for (const observation of observations) tx.observations.put(observation);
    });
    return store.read(read);
  } finally {
    store.close();
  }
}

function traceRecord(i: number, seed: typeof traceSeed extends fc.Arbitrary<infer T> ? T : never): TraceRecord {
  const timestamp = at(seed.minute);
  return {
    id: `t${i}`, projectId: 'p', timestamp, name: null, userId: seed.userId, sessionId: null, release: null, version: null, environment: seed.environment,
    public: false, bookmarked: false, tags: seed.tags, metadata: {}, input: null, output: null, createdAt: timestamp, updatedAt: timestamp,
  };
}

function seededObservation(i: number, traceId: string | null, seed: typeof observationSeed extends fc.Arbitrary<infer T> ? T : never): ObservationRecord {
  return observationRecord(`o${i}`, 'p', at(seed.minute), { traceId, parentObservationId: seed.parent ? 'o0' : null, environment: seed.environment });
}

describe('the lists, against a plain filter of the records', () => {
  it('lists the traces that match every field given', () => {
    const filter = fc.record({
      userId: maybe(fc.constantFrom('u1', 'u2')),
      environments: maybe(fc.subarray([...ENVIRONMENTS])),
      tags: maybe(fc.subarray([...TAGS])),
      fromTimestamp: maybe(fc.integer({ min: 0, max: 100 }).map(at)),
      toTimestamp: maybe(fc.integer({ min: 0, max: 100 }).map(at)),
    });
    fc.assert(
      fc.property(fc.array(traceSeed, { maxLength: 15 }), filter, (seeds, f: TraceFilter) => {
        const traces = seeds.map((seed, i) => traceRecord(i, seed));
        const expected = traces
          .filter(
            (t) =>
              (f.userId === undefined || t.userId === f.userId) &&
              (!f.environments?.length || f.environments.includes(t.environment)) &&
              (f.tags ?? []).every((tag) => t.tags.includes(tag)) &&
              (f.fromTimestamp === undefined || t.timestamp >= f.fromTimestamp) &&
              (f.toTimestamp === undefined || t.timestamp < f.toTimestamp),
          )
          .map((t) => t.id);
        const listed = readStored(traces, [], (tx) => ({ ids: tx.traces.list(f, null, { limit: 100, offset: 0 }).map((t) => t.id), count: tx.traces.count(f) }));
        expect([...listed.ids].sort()).toEqual([...expected].sort());
        expect(listed.count).toBe(expected.length);
      }),
      { numRuns: 60 },
    );
  });

  it('lists the observations that match every field given, their trace’s user among them', () => {
    const filter = fc.record({
      userId: maybe(fc.constantFrom('u1', 'u2')),
      isRoot: maybe(fc.boolean()),
      environments: maybe(fc.subarray([...ENVIRONMENTS])),
      fromStartTime: maybe(fc.integer({ min: 0, max: 100 }).map(at)),
    });
    fc.assert(
      fc.property(fc.array(traceSeed, { minLength: 1, maxLength: 6 }), fc.array(observationSeed, { maxLength: 15 }), filter, (traceSeeds, seeds, f: ObservationFilter) => {
        const traces = traceSeeds.map((seed, i) => traceRecord(i, seed));
        // Some observations name a trace that is not stored.
        const observations = seeds.map((seed, i) => seededObservation(i, `t${seed.trace % (traces.length + 1)}`, seed));
        const userOf = new Map(traces.map((t) => [t.id, t.userId]));
        const expected = observations
          .filter(
            (o) =>
              (f.userId === undefined || userOf.get(o.traceId!) === f.userId) &&
              (f.isRoot === undefined || (o.parentObservationId === null) === f.isRoot) &&
              (!f.environments?.length || f.environments.includes(o.environment)) &&
              (f.fromStartTime === undefined || o.startTime >= f.fromStartTime),
          )
          .map((o) => o.id);
        const listed = readStored(traces, observations, (tx) => ({
          v1: tx.observations.list(f, { limit: 100, offset: 0 }).map((o) => o.id),
          v2: tx.observations.page(f, undefined, 100).map((o) => o.id),
        }));
        expect(listed.v1.sort()).toEqual([...expected].sort());
        expect(listed.v2.sort()).toEqual([...expected].sort());
      }),
      { numRuns: 60 },
    );
  });
});
