import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineTooLongError, lineChunks } from '../../../src/io/line-chunks.js';

async function collect(parts: Array<string | Buffer>, size: number, maxLine?: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of lineChunks(Readable.from(parts.map((p) => Buffer.from(p))), size, maxLine)) out.push(chunk);
  return out;
}

describe('lineChunks', () => {
  it('gives back the input whole, cut only after newlines, whatever the chunking', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `{"line":${i},"text":"${'é'.repeat(i % 17)}"}`).join('\n') + '\nlast without newline';
    const bytes = Buffer.from(text);
    for (const step of [1, 3, 7, 64, 1000, bytes.length]) {
      for (const size of [1, 50, 4096]) {
        const parts: Buffer[] = [];
        for (let at = 0; at < bytes.length; at += step) parts.push(bytes.subarray(at, at + step));
        const chunks = await collect(parts, size);
        expect(Buffer.concat(chunks).toString('utf8')).toBe(text);
        expect(chunks.slice(0, -1).every((c) => c.at(-1) === 10)).toBe(true);
      }
    }
  });

  it('holds a long line across many chunks, up to the limit', async () => {
    const chunks = await collect(['a\n', ...Array<string>(100).fill('x'.repeat(10)), '\nb\n'], 4, 2000);
    expect(Buffer.concat(chunks).toString()).toBe(`a\n${'x'.repeat(1000)}\nb\n`);
  });

  it('stops at a line longer than the limit, naming it, after the lines before it', async () => {
    const seen: string[] = [];
    const endless = Readable.from(
      (function* () {
        yield Buffer.from('one\ntwo\nthree\n');
        for (;;) yield Buffer.alloc(1024, 0);
      })(),
    );
    const error = await (async () => {
      for await (const chunk of lineChunks(endless, 4, 64 * 1024)) seen.push(chunk.toString());
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LineTooLongError);
    expect((error as LineTooLongError).exitCode).toBe(6);
    expect((error as Error).message).toBe('line 4 is longer than 0.0625 MB, the most llmobs reads as one line');
    expect(seen.join('')).toBe('one\ntwo\nthree\n');
  });
});
