// A trace's observations as a tree, and its totals.
import { describe, expect, it } from 'vitest';
import { buildTree, flattenTree, readObservation, traceTotals } from '../../../../src/core/traces/tree.js';

const obs = (id: string, parent: string | null, start: string, extra: Record<string, unknown> = {}) =>
  readObservation({ id, parentObservationId: parent, type: 'SPAN', startTime: `2026-05-01T00:00:${start}Z`, ...extra });

describe('buildTree', () => {
  it('nests children under parents, ordered by start time, and draws the tree', () => {
    const roots = buildTree([obs('c2', 'root', '03'), obs('root', null, '00'), obs('c1', 'root', '01'), obs('g', 'c1', '02')]);
    const lines = flattenTree(roots);
    expect(lines.map((l) => `${l.prefix}${l.node.observation.id}`)).toEqual(['root', '├─ c1', '│  └─ g', '└─ c2']);
    expect(lines.map((l) => l.depth)).toEqual([0, 1, 2, 1]);
    expect(lines[1]!.continuation).toBe('│  │  ');
    expect(lines[3]!.continuation).toBe('      ');
  });

  it('keeps an observation whose parent is missing, as a root that says so', () => {
    const roots = buildTree([obs('a', null, '00'), obs('orphan', 'gone', '01')]);
    expect(roots.map((r) => [r.observation.id, r.missingParent])).toEqual([['a', null], ['orphan', 'gone']]);
  });

  it('loses nothing in a parent cycle or a self-parent, and never loops', () => {
    const roots = buildTree([obs('x', 'y', '00'), obs('y', 'x', '01'), obs('self', 'self', '02')]);
    const ids = flattenTree(roots).map((l) => l.node.observation.id).sort();
    expect(ids).toEqual(['self', 'x', 'y']);
  });

  it('takes a chain 20,000 deep without running out of stack, and draws at most 30 levels of indentation', () => {
    const n = 20_000;
    const list = Array.from({ length: n }, (_, i) => obs(`d${i}`, i ? `d${i - 1}` : null, '00'));
    const lines = flattenTree(buildTree(list));
    expect(lines).toHaveLength(n);
    expect(lines[n - 1]!.depth).toBe(n - 1);
    expect(Math.max(...lines.slice(-10).map((l) => l.prefix.length + l.continuation.length))).toBeLessThanOrEqual(2 * 96);
    // Where the indentation is cut, the line says so.
    expect(lines[n - 1]!.prefix.startsWith('⋯')).toBe(true);
    expect(lines[5]!.prefix).toBe(`${'   '.repeat(4)}└─ `);
  });

  it('takes 150,000 children of one parent (more than a call takes as arguments) and 5,000 two-observation cycles', () => {
    const flat = [obs('root', null, '00'), ...Array.from({ length: 150_000 }, (_, i) => obs(`c${i}`, 'root', '01'))];
    expect(flattenTree(buildTree(flat))).toHaveLength(150_001);
    const cycles = Array.from({ length: 5_000 }, (_, i) => [obs(`x${i}`, `y${i}`, '00'), obs(`y${i}`, `x${i}`, '01')]).flat();
    expect(flattenTree(buildTree(cycles))).toHaveLength(10_000);
  });

  it('shows a repeated id once', () => {
    expect(flattenTree(buildTree([obs('a', null, '00'), obs('a', null, '01')]))).toHaveLength(1);
  });
});

describe('readObservation', () => {
  it('reads the legacy shape and the v2 shape into one, numbers leniently', () => {
    const legacy = readObservation({ id: 'l', type: 'GENERATION', model: 'gpt-4o', calculatedTotalCost: 0.5, usageDetails: { input: 10 }, startTime: '2026-05-01T00:00:00Z', endTime: '2026-05-01T00:00:01.500Z' });
    expect([legacy.model, legacy.cost, legacy.durationSeconds, legacy.usage]).toEqual(['gpt-4o', 0.5, 1.5, { input: 10 }]);
    const v2 = readObservation({ id: 'v', type: 'GENERATION', providedModelName: 'claude', totalCost: '0.25', usageDetails: { input: '7', output: 'x' }, latency: '2.5', parentObservationId: '' });
    expect([v2.model, v2.cost, v2.durationSeconds, v2.usage, v2.parentObservationId]).toEqual(['claude', 0.25, 2.5, { input: 7 }, null]);
    expect(readObservation({ id: 'c', costDetails: { total: '0.1' } }).cost).toBe(0.1);
  });
});

describe('traceTotals', () => {
  it('adds costs and tokens, counts types and levels, and takes the span of the times', () => {
    const list = [
      readObservation({ id: 'a', type: 'SPAN', startTime: '2026-05-01T00:00:00Z', endTime: '2026-05-01T00:00:03Z' }),
      readObservation({ id: 'b', type: 'GENERATION', startTime: '2026-05-01T00:00:01Z', endTime: '2026-05-01T00:00:02Z', totalCost: 0.1, usageDetails: { input: 100, input_cached_tokens: 10, output: 5, total: 115 } }),
      readObservation({ id: 'c', type: 'GENERATION', startTime: '2026-05-01T00:00:02Z', totalCost: '0.2', usageDetails: { input: '1', output: 2, total: 3 }, level: 'ERROR' }),
      readObservation({ id: 'd', type: 'EVENT', startTime: '2026-05-01T00:00:04Z', level: 'WARNING' }),
    ];
    const totals = traceTotals(list);
    expect(totals.cost).toBeCloseTo(0.3, 15);
    expect(totals.tokens).toEqual({ input: 111, output: 7, total: 118 });
    expect(totals.byType).toEqual({ SPAN: 1, GENERATION: 2, EVENT: 1 });
    expect([totals.errors, totals.warnings, totals.observations]).toEqual([1, 1, 4]);
    expect(totals.latencySeconds).toBe(4);
    expect([totals.start, totals.end]).toEqual(['2026-05-01T00:00:00.000Z', '2026-05-01T00:00:04.000Z']);
  });

  it('prefers the server\'s latency, ignores its -1 for "not computed", and says null when nothing has a cost', () => {
    const list = [readObservation({ id: 'a', startTime: '2026-05-01T00:00:00Z', endTime: '2026-05-01T00:00:09Z' })];
    expect(traceTotals(list, { latency: '2.5', totalCost: '0.3' })).toMatchObject({ latencySeconds: 2.5, serverCost: 0.3, cost: null });
    expect(traceTotals(list, { latency: -1, totalCost: -1 })).toMatchObject({ latencySeconds: 9, serverCost: null });
    expect(traceTotals([]).latencySeconds).toBeNull();
  });
});
