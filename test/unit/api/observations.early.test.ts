// The next v2 page is asked for on the cursor at the end of an answer, before the answer is
// parsed; the parsed answer decides, so a cursor it does not confirm is never followed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorAtEnd } from '../../../src/api/observations.js';
import { runInProcess, tempDir } from '../../helpers/cli.js';
import { type Hostile, hostileEnv, serveHostile } from '../../helpers/hostile-server.js';

let current: Hostile | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const at = (text: string) => cursorAtEnd(Buffer.from(text));

describe('the cursor at the end of an answer', () => {
  it('is read where Langfuse writes it: the last member, meta, holding only the cursor', () => {
    expect(at('{"data":[{"id":"a"}],"meta":{"cursor":"eyJhIjoxfQ=="}}')).toBe('eyJhIjoxfQ==');
    expect(at('{"data":[],"meta":{"cursor":"c1"}}\n')).toBe('c1');
    expect(at('{"data":[],"meta":{"cursor":"é"}}')).toBe('é');
  });

  it('is not guessed from anything else', () => {
    expect(at('{"data":[],"meta":{}}')).toBeUndefined();
    expect(at('{"meta":{"cursor":"c1"},"data":[]}')).toBeUndefined();
    expect(at('{"data":[],"meta":{"cursor":"c\\"1"}}')).toBeUndefined();
    expect(at('{"data":[],"meta":{"cursor":""}}')).toBeUndefined();
    expect(at('{"data":[{"meta":{"cursor":"c1"}}]}')).toBeUndefined();
  });
});

describe('a page asked for early', () => {
  const item = (id: string) => ({ id, traceId: 't', startTime: '2026-05-01T00:00:00.000Z', type: 'SPAN', parentObservationId: null });

  it('is followed only when the parsed answer names the same cursor', async () => {
    current = await serveHostile((req, res) => {
      const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor');
      const first = current!.requests.filter((url) => !url.includes('cursor=')).length === 1;
      res.setHeader('content-type', 'application/json');
      // The first answer is malformed (an observation without an id) and ends with a cursor of
      // its own; the answer to the same request asked again names another.
      if (cursor === null) res.end(first ? '{"data":[{"name":"no id"}],"meta":{"cursor":"wrong"}}' : JSON.stringify({ data: [item('o1'), item('o2')], meta: { cursor: 'c1' } }));
      else if (cursor === 'c1') res.end(JSON.stringify({ data: [item('o3')], meta: {} }));
      else res.end(JSON.stringify({ data: [item('never')], meta: {} }));
    });
    const dir = tempDir();
    const result = await runInProcess(['observations', 'export', '--fields', 'core', '--page-size', '2', '--output', 'out.jsonl'], { env: hostileEnv(current.url), cwd: dir, sleeps: [] });
    expect(result.exitCode).toBe(0);
    const lines = readFileSync(join(dir, 'out.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(['o1', 'o2', 'o3']);
    // The cursor at the end of the malformed answer was asked for before the answer was parsed.
    expect(current.requests.some((url) => url.includes('cursor=wrong'))).toBe(true);
  });
});
