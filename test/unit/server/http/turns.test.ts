// The event loop's turns shared by the steps of requests that run side by side (json-stream.ts):
// steps wait in one queue and run first come first, a turn lets steps in until it has run for
// its budget, and a request's chain of steps does not keep the others waiting.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { breathe, ownTurn } from '../../../../src/server/http/json-stream.js';
import { turnCounter } from '../../../helpers/turn-counter.js';

afterEach(() => vi.restoreAllMocks());

/** A clock that only moves when a step says it worked. */
function fakeClock() {
  let now = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  return (ms: number) => {
    now += ms;
  };
}

describe('turns', () => {
  it('lets the waiting steps run first come first, one request’s chain of steps between the others’', async () => {
    const order: string[] = [];
    const chain = async (name: string, steps: number) => {
      for (let i = 0; i < steps; i++) {
        await breathe();
        order.push(`${name}${i}`);
      }
    };
    await Promise.all([chain('a', 4), chain('b', 2), chain('c', 3)]);
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });

  it('lets steps in until the turn has run for its budget, the rest in later turns', async () => {
    const work = fakeClock();
    const turns = turnCounter();
    const ranIn: number[] = [];
    // Five steps of 15 ms each, waiting together: two a turn (the second starts at 15 ms, within 20).
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        await breathe();
        ranIn.push(turns.now());
        work(15);
      }),
    );
    turns.stop();
    const perTurn = [...new Set(ranIn)].map((turn) => ranIn.filter((t) => t === turn).length);
    expect(perTurn).toEqual([2, 2, 1]);
    expect(new Set(ranIn).size).toBe(3);
  });

  it('keeps a step that waited for a later turn ahead of the steps that came after it', async () => {
    const work = fakeClock();
    const order: string[] = [];
    const chain = async (name: string, steps: number) => {
      for (let i = 0; i < steps; i++) {
        await breathe();
        order.push(`${name}${i}`);
        work(15);
      }
    };
    // c0 finds the first turn spent; a1, queued after it, runs after it.
    await Promise.all([chain('a', 3), chain('b', 1), chain('c', 1)]);
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'a2']);
  });

  it('runs a request’s step at once while nothing waits and the turn has time, else behind the waiting ones', async () => {
    const work = fakeClock();
    await breathe();
    const order: string[] = [];
    // A fresh turn: a step runs at once.
    const first = ownTurn().then(() => order.push('first'));
    await first;
    work(25);
    // The turn's budget is spent: the next waits for a later turn, behind a step already waiting.
    const waiting = breathe().then(() => order.push('waiting'));
    const late = ownTurn().then(() => order.push('late'));
    await Promise.all([waiting, late]);
    expect(order).toEqual(['first', 'waiting', 'late']);
  });
});
