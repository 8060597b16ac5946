// Deleting traces in steps of bounded work (TraceStore.deleteStep): the same end as one deletion,
// each step within its budget of observations and scores, a trace's row last.
import { describe, expect, it } from 'vitest';
import { ingestEvents } from '../../../../src/server/ingest/routes.js';
import { Store } from '../../../../src/server/store/index.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const ts = (second: number) => new Date(NOW.getTime() - 3_600_000 + second * 1000).toISOString();

/** Traces `a` (7 observations, 2 scores), `b` (none), `c` (4 observations, 1 score) and `d` (2 observations), from their events. */
function traceEvents(): unknown[] {
  const events: unknown[] = [];
  const event = (id: string, type: string, body: Record<string, unknown>) => events.push({ id, type, timestamp: ts(0), body });
  for (const [trace, observations, scores] of [['a', 7, 2], ['b', 0, 0], ['c', 4, 1], ['d', 2, 0]] as const) {
    event(`e-${trace}`, 'trace-create', { id: trace, name: 'demo' });
    for (let i = 0; i < observations; i++) event(`e-${trace}-o${i}`, 'span-create', { id: `${trace}-o${i}`, traceId: trace, startTime: ts(i) });
    for (let i = 0; i < scores; i++) event(`e-${trace}-s${i}`, 'score-create', { id: `${trace}-s${i}`, traceId: trace, name: 'q', value: i });
  }
  return events;
}

function seeded(): Store {
  const { store } = Store.open({ now: () => NOW });
  store.write((tx) => ingestEvents(traceEvents(), tx, { projectId: store.project.id, accessLevel: 'project' }, NOW));
  return store;
}

/** What the store holds of each trace: its row, its observations and its scores. */
function contents(store: Store): Record<string, [boolean, number, number]> {
  return store.read((tx) => Object.fromEntries(['a', 'b', 'c', 'd'].map((id) => [id, [tx.traces.get(id) !== undefined, tx.observations.ofTrace(id).length, tx.scores.ofTrace(id).length]])));
}

describe('deleting traces in steps', () => {
  it('removes at most the budget of rows a step, the trace row last, and ends as one deletion does', () => {
    const ids = ['a', 'missing', 'b', 'c'];
    const whole = seeded();
    expect(whole.write((tx) => tx.traces.delete([...ids, 'a']))).toBe(3);

    const stepped = seeded();
    const rows = (s: Record<string, [boolean, number, number]>) => Object.values(s).reduce((n, [, o, sc]) => n + o + sc, 0);
    let done = { at: 0, deleted: 0 };
    const seen: Array<{ at: number; removed: number; a: boolean }> = [];
    while (done.at < ids.length) {
      const before = rows(contents(stepped));
      done = stepped.write((tx) => tx.traces.deleteStep(ids, done, 3));
      seen.push({ at: done.at, removed: before - rows(contents(stepped)), a: contents(stepped)['a']![0] });
    }
    // a's 9 rows in three steps (its row goes in the third, with them gone, and so do 'missing'
    // and b, which hold none), then c's 5 in two.
    expect(seen).toEqual([
      { at: 0, removed: 3, a: true },
      { at: 0, removed: 3, a: true },
      { at: 3, removed: 3, a: false },
      { at: 3, removed: 3, a: false },
      { at: 4, removed: 2, a: false },
    ]);
    expect(done.deleted).toBe(3);
    expect(contents(stepped)).toEqual(contents(whole));
    expect(contents(stepped)).toEqual({ a: [false, 0, 0], b: [false, 0, 0], c: [false, 0, 0], d: [true, 2, 0] });

    // The deleted records' events stay known: sent again, they bring nothing back.
    stepped.write((tx) => ingestEvents(traceEvents(), tx, { projectId: stepped.project.id, accessLevel: 'project' }, NOW));
    expect(contents(stepped)).toEqual({ a: [false, 0, 0], b: [false, 0, 0], c: [false, 0, 0], d: [true, 2, 0] });
    whole.close();
    stepped.close();
  });
});
