// The observations of one trace for its page, by start time, a page of at most PAGE_LIMIT at a
// time with a cursor for the next: a trace of any size opens as fast as a small one, and the
// browser holds what it asked for, never the whole trace. Langfuse's trace view likewise loads the
// first observations by start time and says when there are more; the whole trace streams from
// its JSON download. The page itself is written in slices, as a large answer of the API is.
import { type Prices, pricesOf, observationV1 } from '../handlers/observation-view.js';
import { LateValue, type ReadSlice, SlicedArray } from '../http/json-stream.js';
import { rowsToRead } from '../http/slice-size.js';
import type { ServerReply } from '../http/router.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { InternalApi } from './internal-api.js';
import { type TraceSums, traceSums } from './trace-sums.js';

export const PAGE_LIMIT = 1000;

interface Cursor {
  startTime: string;
  id: string;
}

/** Observations a slice of the answer reads: one turn of the event loop each. */
const SLICE = 250;

export function traceObservations(api: InternalApi, query: URLSearchParams): ServerReply {
  const traceId = query.get('traceId');
  if (!traceId) return { status: 400, body: { message: 'traceId: required' } };
  const limit = Math.min(PAGE_LIMIT, Math.max(1, Number(query.get('limit') ?? PAGE_LIMIT) || PAGE_LIMIT));
  const first = decodeCursor<Cursor>(query.get('cursor'), ({ startTime, id }) => (typeof startTime === 'string' && typeof id === 'string' ? { startTime, id } : undefined));
  if (first === null) return { status: 400, body: { message: 'cursor: not one this server gave' } };
  // The page is read in slices, each in a read transaction of its own (http/json-stream.ts).
  let after = first;
  let sent = 0;
  let done = false;
  const cache = new Map<string, Prices | undefined>();
  const data = new SlicedArray((tx) => {
    if (done) return undefined;
    // At most SLICE observations, fewer when their stored text is large (slice-size.ts).
    const want = Math.min(SLICE, limit - sent);
    const { take } = rowsToRead(tx.observations.ofTraceSizes(traceId, after, want), want);
    const rows = take === 0 ? [] : tx.observations.ofTraceAfter(traceId, after, take);
    const last = rows[rows.length - 1];
    if (last) after = { startTime: last.startTime, id: last.id };
    sent += rows.length;
    done = sent >= limit || rows.length === 0;
    return rows.map((o) => observationV1(o, pricesOf(tx, o.internalModelId, cache), true));
  });
  // Whether another page follows: the next observation after this page's last.
  const nextCursor = new LateValue((read) => read((tx) => (after && sent >= limit && tx.observations.ofTraceAfter(traceId, after, 1).length > 0 ? encodeCursor(after) : null)));
  // With the first page only, the trace's figures the page shows from then on: the count, and
  // latency and cost as the trace's own answer has them, from its observations' times and costs
  // read in slices (the trace's answer would build every observation to sum their costs).
  if (first !== undefined) return { status: 200, body: { data, nextCursor } };
  const total = new LateValue((read) => read((tx) => tx.observations.count({ traceId })));
  let sums: Promise<TraceSums> | undefined;
  const figuresOf = (read: ReadSlice) => (sums ??= traceSums(read, traceId));
  const latency = new LateValue(async (read) => (await figuresOf(read)).latency);
  const totalCost = new LateValue(async (read) => (await figuresOf(read)).totalCost);
  return { status: 200, body: { data, nextCursor, total, latency, totalCost } };
}
