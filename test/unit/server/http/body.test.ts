// The depth of JSON nesting, measured on the text before a body is parsed; the bounded drain of
// a refused body.
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drainBody, jsonDepth } from '../../../../src/server/http/body.js';

describe('JSON depth, measured without parsing', () => {
  const depthOf = (value: unknown): number =>
    Array.isArray(value) ? 1 + Math.max(0, ...value.map(depthOf)) : value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

  it('equals the nesting of the parsed value, whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent) ?? 'null';
        expect(jsonDepth(text)).toBe(depthOf(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('skips brackets and escaped quotes inside strings', () => {
    expect(jsonDepth('{"a":"[[{{\\\\","b":["\\"]]]\\"",{"c":"\\\\\\"{"}]}')).toBe(3);
    expect(jsonDepth('"[[[["')).toBe(0);
    expect(jsonDepth(`${'['.repeat(600)}${']'.repeat(600)}`)).toBe(600);
    // Unterminated text: whatever was seen before the string that never ends.
    expect(jsonDepth('[[{"a":"no end')).toBe(3);
  });
});

describe('draining a refused body', () => {
  /** A request body as a stream, with what drainBody reads of an IncomingMessage. */
  const request = (headers: Record<string, string> = {}) => Object.assign(new PassThrough(), { headers, complete: false }) as unknown as IncomingMessage & PassThrough;
  const limit = { bytes: 1000, ms: 200 };

  it('reads the rest of the body and says when the request has ended', async () => {
    const req = request();
    const drained = drainBody(req, limit);
    req.write(Buffer.alloc(600));
    req.end(Buffer.alloc(300));
    expect(await drained).toBe(true);
  });

  it('stops at the bounds: more bytes than allowed, a client that stalls, a declared length past the bound', async () => {
    const big = request();
    const drained = drainBody(big, limit);
    big.write(Buffer.alloc(1200));
    expect(await drained).toBe(false);
    const stalled = request();
    const started = Date.now();
    stalled.write(Buffer.alloc(10));
    expect(await drainBody(stalled, limit)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(limit.ms - 20);
    expect(await drainBody(request({ 'content-length': '1001' }), limit)).toBe(false);
  });

  it('answers at once for a request already read to its end', async () => {
    const req = Object.assign(request(), { complete: true });
    expect(await drainBody(req, limit)).toBe(true);
  });
});
