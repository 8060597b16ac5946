// Answers written in slices: each slice read in a transaction of its own, the event loop free
// between slices, the client's pace followed; and a long trace read over HTTP, whole and in the
// order it had when it was built in one go.
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inPieces, isSliced, LateValue, RawJson, SlicedArray, SlicedObject, wholeBody, writeSliced } from '../../../../src/server/http/json-stream.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { ObservationStore, Store, TraceStore, type Tx } from '../../../../src/server/store/index.js';
import { basicAuth } from '../../../helpers/server-api.js';

/** A ServerResponse stand-in that keeps what is written. */
function response() {
  const sink = new PassThrough();
  const chunks: string[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const res = Object.assign(sink, { status: 0, writeHead: (status: number) => ((res.status = status), res) });
  return { res, chunks };
}

const fakeStore = (log: string[]) => ({ read: <T>(fn: (tx: Tx) => T) => (log.push('read'), fn({} as Tx)) }) as unknown as Store;

describe('writeSliced', () => {
  it('reads each slice in its own transaction and lets other work run between them', async () => {
    const log: string[] = [];
    let n = 0;
    const slices = new SlicedArray(() => {
      if (n === 3) return undefined;
      n++;
      // Work queued now runs before the next slice is read.
      setImmediate(() => log.push(`between ${n}`));
      return [n * 10, n * 10 + 1];
    });
    const { res, chunks } = response();
    const body = { a: 1, list: slices, total: new LateValue(() => n), skipped: undefined };
    expect(isSliced(body)).toBe(true);
    expect(isSliced({ a: [1] })).toBe(false);
    await writeSliced(res as never, 200, {}, body, fakeStore(log));
    expect(JSON.parse(chunks.join(''))).toEqual({ a: 1, list: [10, 11, 20, 21, 30, 31], total: 3 });
    expect(log).toEqual(['read', 'between 1', 'read', 'between 2', 'read', 'between 3', 'read']);
    expect(res.status).toBe(200);
  });

  it('reads the next slice only once the client has taken the last one', async () => {
    let taken: Array<() => void> = [];
    // A client that takes nothing until told to: each write waits.
    const res = Object.assign(new Writable({ highWaterMark: 1, write: (_chunk, _encoding, callback) => taken.push(callback) }), { writeHead: () => res });
    let reads = 0;
    const slices = new SlicedArray(() => (++reads > 3 ? undefined : ['x'.repeat(100)]));
    const writing = writeSliced(res as never, 200, {}, { list: slices }, fakeStore([]));
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    await settle();
    expect(reads).toBe(1);
    for (const expected of [2, 3, 4]) {
      const callbacks = taken;
      taken = [];
      callbacks.forEach((callback) => callback());
      await settle();
      expect(reads).toBe(expected);
    }
    taken.forEach((callback) => callback());
    res.on('finish', () => undefined);
    await writing;
  });

  it('writes objects with sliced members inside arrays, piece by piece, as the same bytes as the whole value', async () => {
    const log: string[] = [];
    const ids = Array.from({ length: 25 }, (_, i) => `id-${i}`);
    const rows = () => [
      new SlicedObject({ id: 't1', skipped: undefined, observations: inPieces(ids, 10), scores: [], cost: 0.1 + 0.2 }),
      new SlicedObject({ id: 't2', observations: inPieces([], 10), nested: { a: [1, null] } }),
    ];
    const plain = [
      { id: 't1', skipped: undefined, observations: ids, scores: [], cost: 0.1 + 0.2 },
      { id: 't2', observations: [], nested: { a: [1, null] } },
    ];
    const body = { data: rows(), list: new SlicedArray(() => (log.includes('listed') ? undefined : (log.push('listed'), rows()))), meta: { page: 1 } };
    expect(isSliced(body)).toBe(true);
    const { res, chunks } = response();
    await writeSliced(res as never, 200, {}, body, fakeStore(log));
    expect(chunks.join('')).toBe(JSON.stringify({ data: plain, list: plain, meta: { page: 1 } }));
    // A read for each piece of ids and one that finds no more (4 for t1, 1 for t2), twice, and
    // the list's own two.
    expect(log.filter((entry) => entry === 'read')).toHaveLength(12);
    expect(wholeBody({ data: rows(), meta: { page: 1 } }, {} as Tx)).toEqual({ data: plain, meta: { page: 1 } });
  });

  it('sends JSON already written as it is, in pieces whose bytes add up to it', async () => {
    // More than one piece of a megabyte, with characters of two to four bytes across its edges.
    const ids = Array.from({ length: 100_000 }, (_, i) => `id-${i}-é-😀-"q"`);
    const raw = new TextEncoder().encode(JSON.stringify(ids));
    expect(raw.length).toBeGreaterThan(2 << 20);
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    const res = Object.assign(sink, { writeHead: () => res });
    const body = { data: [new SlicedObject({ id: 't', observations: new RawJson(raw), scores: new RawJson(new TextEncoder().encode('[]')) })], meta: {} };
    await writeSliced(res as never, 200, {}, body, fakeStore([]));
    expect(Buffer.concat(chunks).toString('utf8')).toBe(JSON.stringify({ data: [{ id: 't', observations: ids, scores: [] }], meta: {} }));
    expect(chunks.length).toBeGreaterThan(3);
    expect(wholeBody(body, {} as Tx)).toEqual({ data: [{ id: 't', observations: ids, scores: [] }], meta: {} });
  });

  it('cuts the connection when a slice fails, so that no complete-looking answer is sent', async () => {
    const { res, chunks } = response();
    let calls = 0;
    const failing = new SlicedArray(() => {
      if (++calls === 2) throw new Error('disk gone');
      return [1];
    });
    await expect(writeSliced(res as never, 200, {}, { list: failing }, fakeStore([]))).rejects.toThrow('disk gone');
    expect(res.destroyed).toBe(true);
    expect(() => JSON.parse(chunks.join(''))).toThrow();
  });
});

describe('a long trace over HTTP', () => {
  let server: RunningServer;
  const COUNT = 1234;
  const T0 = Date.parse('2026-03-01T10:00:00.000Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  // Start times tie in groups of seven, so slices end inside a run of equal times.
  const startOf = (i: number) => T0 + Math.floor(i / 7) * 1000;
  const id = (i: number) => `obs-${String((i * 7919) % COUNT).padStart(5, '0')}`;

  beforeAll(async () => {
    server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
    const events = [
      { id: 'e-trace', type: 'trace-create', timestamp: iso(T0), body: { id: 'long', name: 'long', timestamp: iso(T0) } },
      ...Array.from({ length: COUNT }, (_, i) => ({
        id: `e-${i}`,
        type: 'generation-create',
        timestamp: iso(startOf(i)),
        body: { id: id(i), traceId: 'long', name: 'g', startTime: iso(startOf(i)), endTime: iso(startOf(i) + 500), model: 'no-such-model', costDetails: { input: 0.001, output: 0.002 } },
      })),
    ];
    for (let i = 0; i < events.length; i += 200) {
      const answer = await fetch(`${server.url}/api/public/ingestion`, {
        method: 'POST',
        headers: { authorization: basicAuth(server), 'content-type': 'application/json' },
        body: JSON.stringify({ batch: events.slice(i, i + 200) }),
      });
      expect(answer.status).toBe(207);
    }
  });
  afterAll(() => server.close());

  it('answers every observation once, by start time then id, with latency and total cost', async () => {
    // Each slice is a read transaction of its own: many for a long trace, never one for all of it.
    const reads = vi.spyOn(Store.prototype, 'read');
    const answer = await fetch(`${server.url}/api/public/traces/long`, { headers: { authorization: basicAuth(server) } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    const body = (await answer.json()) as { observations: Array<{ id: string; startTime: string; calculatedTotalCost: number }>; latency: number; totalCost: number };
    const expected = Array.from({ length: COUNT }, (_, i) => ({ id: id(i), startTime: iso(startOf(i)) })).sort((a, b) => (a.startTime === b.startTime ? (a.id < b.id ? -1 : 1) : a.startTime < b.startTime ? -1 : 1));
    expect(body.observations.map((o) => ({ id: o.id, startTime: o.startTime }))).toEqual(expected);
    expect(body.latency).toBe((startOf(COUNT - 1) + 500 - T0) / 1000);
    expect(body.totalCost).toBeCloseTo(COUNT * 0.003, 9);
    expect(reads.mock.calls.length).toBeGreaterThan(COUNT / 500);
    reads.mockRestore();
    const metricsOnly = (await (await fetch(`${server.url}/api/public/traces/long?fields=metrics`, { headers: { authorization: basicAuth(server) } })).json()) as typeof body;
    expect(metricsOnly).toMatchObject({ observations: [], latency: body.latency, totalCost: body.totalCost });
  });
});

describe('a v2 page of large observations over HTTP', () => {
  let server: RunningServer;
  const COUNT = 12;
  const T0 = Date.parse('2026-03-01T10:00:00.000Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  // About 1 MB of stored text each, with quotes that the answer escapes: a page of ten is
  // several slices of at most 4 MB.
  const inputOf = (i: number) => ({ role: 'user', content: `${i} "said" `.repeat(100_000) });

  beforeAll(async () => {
    server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
    const events = Array.from({ length: COUNT }, (_, i) => ({
      id: `e-${i}`,
      type: 'span-create',
      timestamp: iso(T0),
      // Two by two at the same start time: slices end inside runs of equal times.
      body: { id: `big-${String(i).padStart(2, '0')}`, traceId: 't', name: 's', startTime: iso(T0 + Math.floor(i / 2) * 1000), input: inputOf(i), metadata: { n: i } },
    }));
    events.unshift({ id: 'e-trace', type: 'trace-create', timestamp: iso(T0), body: { id: 't', name: 'large' } } as never);
    // Traces with large inputs of their own (about 1.5 MB each).
    for (let k = 0; k < 6; k++) events.push({ id: `e-lt-${k}`, type: 'trace-create', timestamp: iso(T0 - k * 1000), body: { id: `lt-${k}`, name: 'large', input: 'x'.repeat(1_500_000) } } as never);
    for (let i = 0; i < events.length; i += 3) {
      const answer = await fetch(`${server.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: basicAuth(server), 'content-type': 'application/json' }, body: JSON.stringify({ batch: events.slice(i, i + 3) }) });
      expect(answer.status).toBe(207);
    }
  });
  afterAll(() => server.close());

  const page = async (query: string) => {
    const answer = await fetch(`${server.url}/api/public/v2/observations?fields=core,io,metadata&${query}`, { headers: { authorization: basicAuth(server) } });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { data: Array<{ id: string; input: string; metadata: { n: number } }>; meta: { cursor?: string } };
  };

  it('is read in slices, and gives the same observations in the same order as pages of one', async () => {
    const reads = vi.spyOn(Store.prototype, 'read');
    const first = await page('limit=10');
    // Ten observations of about 1 MB, in slices of at most 4 MB: at least three reads.
    expect(reads.mock.calls.length).toBeGreaterThanOrEqual(3);
    reads.mockRestore();
    const second = await page(`limit=10&cursor=${encodeURIComponent(first.meta.cursor!)}`);
    expect(second.meta).toEqual({});
    const walked: typeof first.data = [];
    let cursor: string | undefined;
    do {
      const one = await page(`limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      walked.push(...one.data);
      cursor = one.meta.cursor;
    } while (cursor);
    const ids = Array.from({ length: COUNT }, (_, i) => `big-${String(i).padStart(2, '0')}`);
    // Newest start first; equal times by trace hash (one trace here), then id, descending.
    const expected = ids.sort((a, b) => (Math.floor(Number(b.slice(4)) / 2) - Math.floor(Number(a.slice(4)) / 2)) || (a < b ? 1 : -1));
    expect([...first.data, ...second.data].map((o) => o.id)).toEqual(expected);
    expect([...first.data, ...second.data]).toEqual(walked);
    expect(first.data[0]!.input).toBe(JSON.stringify(inputOf(Number(first.data[0]!.id.slice(4)))));
    expect(first.data.map((o) => o.metadata.n)).toEqual(first.data.map((o) => Number(o.id.slice(4))));
  });

  it('reads no input, output or metadata for a page that does not send them: one read, with its length', async () => {
    const get = async (fields: string) => {
      const answer = await fetch(`${server.url}/api/public/v2/observations?fields=${fields}&limit=10`, { headers: { authorization: basicAuth(server) } });
      expect(answer.status).toBe(200);
      return { length: answer.headers.get('content-length'), body: (await answer.json()) as { data: Array<Record<string, unknown>>; meta: { cursor?: string } } };
    };
    const reads = vi.spyOn(Store.prototype, 'read');
    const basic = await get('core,basic');
    const metadata = await get('core,metadata');
    expect(reads.mock.calls.length).toBe(2);
    reads.mockRestore();
    expect(Number(basic.length)).toBeGreaterThan(0);
    expect(Number(basic.length)).toBeLessThan(100_000);
    expect(basic.body.data.every((o) => !('input' in o) && !('output' in o) && !('metadata' in o))).toBe(true);
    expect(metadata.body.data.map((o) => o['metadata'])).toEqual(metadata.body.data.map((o) => ({ n: Number(String(o['id']).slice(4)) })));
    const io = await page('limit=10');
    expect(basic.body.data.map((o) => o['id'])).toEqual(io.data.map((o) => o.id));
    expect(basic.body.meta).toEqual(io.meta);
    expect(metadata.body.data).toEqual(io.data.map((o) => Object.fromEntries(Object.entries(o).filter(([key]) => key !== 'input' && key !== 'output'))));
  });

  it('is read in slices on the v1 list too, page by page as one page of all', async () => {
    const v1 = async (query: string) => {
      const answer = await fetch(`${server.url}/api/public/observations?${query}`, { headers: { authorization: basicAuth(server) } });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { data: Array<{ id: string; input: unknown }>; meta: { totalItems: number; totalPages: number } };
    };
    const reads = vi.spyOn(Store.prototype, 'read');
    const all = await v1('limit=100');
    expect(reads.mock.calls.length).toBeGreaterThanOrEqual(3);
    reads.mockRestore();
    expect(all.meta).toMatchObject({ totalItems: COUNT, totalPages: 1 });
    expect(all.data).toHaveLength(COUNT);
    const pages = [await v1('limit=5&page=1'), await v1('limit=5&page=2'), await v1('limit=5&page=3')];
    expect(pages.flatMap((p) => p.data)).toEqual(all.data);
    expect(all.data[0]!.input).toEqual(inputOf(Number(all.data[0]!.id.slice(4))));
  });

  it('is read in slices in a trace too: a few large observations at a time', async () => {
    const reads = vi.spyOn(ObservationStore.prototype, 'ofTraceAfter');
    const answer = await fetch(`${server.url}/api/public/traces/t`, { headers: { authorization: basicAuth(server) } });
    expect(answer.status).toBe(200);
    const trace = (await answer.json()) as { observations: Array<{ id: string; input: unknown }> };
    const limits = reads.mock.calls.map((call) => call[2]);
    reads.mockRestore();
    expect(limits.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...limits)).toBeLessThan(5);
    expect(trace.observations.map((o) => o.id).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `big-${String(i).padStart(2, '0')}`));
    expect(trace.observations.every((o) => JSON.stringify(o.input) === JSON.stringify(inputOf(Number(o.id.slice(4)))))).toBe(true);
  });

  it('is read in slices on the traces list too: a few large traces at a time', async () => {
    const reads = vi.spyOn(TraceStore.prototype, 'records');
    const answer = await fetch(`${server.url}/api/public/traces?name=large&fields=core,io&limit=100`, { headers: { authorization: basicAuth(server) } });
    expect(answer.status).toBe(200);
    const list = (await answer.json()) as { data: Array<{ id: string; input: string }>; meta: { totalItems: number } };
    const sizes = reads.mock.calls.map((call) => call[0].length);
    reads.mockRestore();
    // The small trace and two large ones, then two by two.
    expect(sizes).toEqual([3, 2, 2]);
    expect(list.data.map((t) => t.id)).toEqual(['t', 'lt-0', 'lt-1', 'lt-2', 'lt-3', 'lt-4', 'lt-5']);
    expect(list.meta.totalItems).toBe(7);
    expect(list.data.slice(1).every((t) => t.input === 'x'.repeat(1_500_000))).toBe(true);
  });

  it('answers a page of none, and a page that ends exactly with the observations', async () => {
    expect(await page('limit=0')).toEqual({ data: [], meta: {} });
    const all = await page(`limit=${COUNT}`);
    expect(all.data).toHaveLength(COUNT);
    expect(all.meta).toEqual({});
  });
});
