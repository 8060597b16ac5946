// Compressed request bodies inflated off the event loop: zlib runs on Node's thread pool, a chunk
// at a time, and the output is counted as it comes, so a small body that inflates to gigabytes
// is stopped at the limit without the server having stalled or held more than the limit. What is
// inflated counts against the bodies' memory budget, like a body being received.
import { createGunzip } from 'node:zlib';
import type { BodyBudget } from './body.js';

export type Inflated = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'corrupt' | 'busy' };

/** Inflates a gzip body to at most `limit` bytes. */
export function gunzipBody(body: Buffer, limit: number, budget?: BodyBudget): Promise<Inflated> {
  return new Promise((resolve) => {
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: Inflated) => {
      if (settled) return;
      settled = true;
      if (budget) budget.used -= size;
      if (!result.ok) {
        chunks.length = 0;
        gunzip.destroy();
      }
      resolve(result);
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.length > limit) return finish({ ok: false, reason: 'too-large' });
      if (budget && budget.used + chunk.length > budget.limit) return finish({ ok: false, reason: 'busy' });
      if (budget) budget.used += chunk.length;
      size += chunk.length;
      chunks.push(chunk);
    });
    gunzip.on('error', () => finish({ ok: false, reason: 'corrupt' }));
    gunzip.on('end', () => finish({ ok: true, body: Buffer.concat(chunks, size) }));
    gunzip.end(body);
  });
}
