// gunzipBody: the body as gzip inflated it, within the limit and the budget, and the event loop
// free while it works (other callbacks run between its chunks; counted in turns, not timed).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../../../src/server/http/body.js';
import { gunzipBody } from '../../../../src/server/http/inflate.js';
import { turnCounter } from '../../../helpers/turn-counter.js';

describe('gunzipBody', () => {
  it('inflates within the limit and gives the budget back', async () => {
    const text = JSON.stringify({ resourceSpans: Array.from({ length: 2000 }, (_, i) => ({ i, name: `span ${i}` })) });
    const budget = new BodyBudget(10 * 1024 * 1024);
    const inflated = await gunzipBody(gzipSync(text), 1024 * 1024, budget);
    expect(inflated.ok && inflated.body.toString()).toBe(text);
    expect(budget.used).toBe(0);
  });

  it('stops at the limit, at the budget, and on a corrupt body', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    expect(await gunzipBody(bomb, 1024 * 1024)).toEqual({ ok: false, reason: 'too-large' });
    const budget = new BodyBudget(512 * 1024);
    expect(await gunzipBody(bomb, 16 * 1024 * 1024, budget)).toEqual({ ok: false, reason: 'busy' });
    expect(budget.used).toBe(0);
    expect(await gunzipBody(Buffer.from('not gzip'), 1024)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('leaves the event loop free while it inflates', async () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024, 0x20), { level: 9 });
    const turns = turnCounter();
    const inflated = await gunzipBody(bomb, 64 * 1024 * 1024);
    turns.stop();
    expect(inflated.ok && inflated.body.length).toBe(32 * 1024 * 1024);
    // A synchronous inflation would let the loop turn once or twice; chunk by chunk it turns many times.
    expect(turns.now()).toBeGreaterThan(20);
  });
});
