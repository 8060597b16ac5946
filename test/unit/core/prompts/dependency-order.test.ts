import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dependencyOrder } from '../../../../src/core/prompts/dependency-order.js';

describe('dependencyOrder', () => {
  it('puts what is referenced first, ties by name, and ignores outside names and self-references', () => {
    const graph: Record<string, string[]> = { parent: ['m-child', 'outside'], 'm-child': ['z-leaf', 'm-child'], 'z-leaf': [], alone: [] };
    expect(dependencyOrder(Object.keys(graph), (name) => graph[name]!)).toEqual({ order: ['alone', 'z-leaf', 'm-child', 'parent'], inCycle: new Set() });
  });

  it('names the members of a cycle, not those that merely wait on one', () => {
    const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'], e: [] };
    const { order, inCycle } = dependencyOrder(Object.keys(graph), (name) => graph[name]!);
    expect(inCycle).toEqual(new Set(['a', 'b', 'c']));
    expect(order).toHaveLength(5);
  });

  it('on any graph: every name outside a cycle comes after every name it depends on', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const graphs = fc.dictionary(fc.constantFrom(...names), fc.array(fc.constantFrom(...names), { maxLength: 3 }));
    fc.assert(
      fc.property(graphs, (graph) => {
        const { order, inCycle } = dependencyOrder(names, (name) => graph[name] ?? []);
        expect([...order].sort()).toEqual(names);
        for (const name of names) {
          if (inCycle.has(name)) continue;
          for (const child of graph[name] ?? []) if (child !== name) expect(order.indexOf(child)).toBeLessThan(order.indexOf(name));
        }
      }),
      { numRuns: 500 },
    );
  });
});
