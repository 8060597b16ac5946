// A trace's observations as a tree, and its totals.
import { describe, expect, it } from 'vitest';
import { buildTree, flattenTree, MAX_DRAWN_DEPTH, readObservation, traceTotals } from '../../../src/core/traces/tree.js';

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

describe('a hostile trace', () => {
  it('a parent chain 30,000 deep: built, sorted and drawn without recursion, the drawing indented at most MAX_DRAWN_DEPTH levels', () => {
    const chain = Array.from({ length: 30_000 }, (_, i) => obs(`o${i}`, i === 0 ? null : `o${i - 1}`, '00'));
    const lines = flattenTree(buildTree(chain));
    expect(lines).toHaveLength(30_000);
    expect(lines.map((l) => l.depth)).toEqual(chain.map((_, i) => i));
    expect(lines.at(-1)!.node.observation.id).toBe('o29999');
    const longest = Math.max(...lines.map((l) => Math.max(l.prefix.length, l.continuation.length)));
    expect(longest).toBeLessThanOrEqual(3 * (MAX_DRAWN_DEPTH + 1));
  });

  it("100,000 observations in parent cycles: each becomes a root, in linear time (before: 50,000 cuts each rescanning every node, far past the test timeout)", () => {
    const pairs = Array.from({ length: 50_000 }, (_, i) => [obs(`a${i}`, `b${i}`, '00'), obs(`b${i}`, `a${i}`, '01')]).flat();
    const roots = buildTree(pairs);
    const lines = flattenTree(roots);
    expect(lines).toHaveLength(100_000);
    expect(new Set(lines.map((l) => l.node.observation.id)).size).toBe(100_000);
  });
});
