import { describe, expect, it } from 'vitest';
import { MergeQueue } from '../../../src/tokenizer/merge-queue.js';
import { rng } from './support/corpus.js';

describe('merge queue', () => {
  it('pops candidates by rank, then start, whatever order they arrive in', () => {
    const r = rng(17);
    // One queue for every round, emptied in between: it must forget what the last round left.
    const queue = new MergeQueue();
    for (let round = 0; round < 200; round++) {
      queue.clear();
      const reference: [number, number][] = [];
      let last = 0;
      for (let op = 0; op < 400; op++) {
        if (r() < 0.6 || reference.length === 0) {
          // Mostly increasing starts within a few ranks, as merging produces them, sometimes not.
          const rank = Math.floor(r() * (round % 2 ? 4 : 50));
          const start = r() < 0.8 ? (last += Math.floor(r() * 3)) : Math.floor(r() * last + 1);
          queue.push(rank, start);
          reference.push([rank, start]);
        } else {
          reference.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          const [rank, start] = reference.shift()!;
          expect([queue.pop(), queue.rank]).toEqual([start, rank]);
        }
        expect(queue.empty).toBe(reference.length === 0);
      }
      // Half the rounds end with candidates left in the queue.
      while (round % 4 < 2 && reference.length > 0) {
        reference.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const [rank, start] = reference.shift()!;
        expect([queue.pop(), queue.rank]).toEqual([start, rank]);
      }
    }
  });
});
