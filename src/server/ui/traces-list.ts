// The traces list of the UI: the v3 list route's rows (newest first) with each trace's latency,
// cost and tokens, paged by a cursor (the last row's timestamp and the ids shown at that
// timestamp) rather than by page number, so a page deep in the list costs what the first does.
import { readSlices } from '../http/json-stream.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { InternalApi } from './internal-api.js';
import { traceSums } from './trace-sums.js';

const FILTERS = ['name', 'userId', 'sessionId', 'environment', 'tags', 'fromTimestamp', 'toTimestamp', 'release', 'version'] as const;
const MAX_LIMIT = 100;

interface Cursor {
  /** Rows before this timestamp, and at it the ones not in `seen`. */
  at: string;
  seen: string[];
}

interface TraceRow {
  id: string;
  timestamp: string;
  name: string | null;
  userId: string | null;
  sessionId: string | null;
  environment: string;
  tags: string[];
}

export interface TracesBody {
  data: Array<TraceRow & { latency: number; totalCost: number; totalTokens: number }>;
  nextCursor: string | null;
}

/** A page (`ok`), or the error answer of the list route. */
export type TracesPage = { ok: true; status: 200; body: TracesBody } | { ok: false; status: number; body?: unknown };

export async function listTraces(api: InternalApi, params: URLSearchParams): Promise<TracesPage> {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(params.get('limit') ?? 50) || 50));
  const cursor = decodeCursor<Cursor>(params.get('cursor'), ({ at, seen }) =>
    typeof at === 'string' && !Number.isNaN(Date.parse(at)) && Array.isArray(seen) && seen.every((id) => typeof id === 'string') ? { at, seen } : undefined,
  );
  if (cursor === null) return { ok: false, status: 400, body: { message: 'cursor: not one this server gave' } };
  // The rows alone: their figures are summed below, a slice at a time.
  const filter = new URLSearchParams({ orderBy: 'timestamp.desc', fields: 'core' });
  for (const key of FILTERS) for (const value of params.getAll(key)) if (value !== '') filter.append(key, value);
  const ask = (changes: Record<string, string>): TraceRow[] | TracesPage => {
    const query = new URLSearchParams(filter);
    for (const [key, value] of Object.entries(changes)) query.set(key, value);
    const reply = api.call('GET', '/api/public/traces', query);
    return reply.status === 200 ? (reply.body as { data: TraceRow[] }).data : { ok: false, ...reply };
  };

  // One row more than the page, to know whether there is a next one.
  const rows: TraceRow[] = [];
  if (cursor) {
    // The traces at the cursor's millisecond not shown yet, however many share it: that
    // millisecond alone, page by page (the list's upper bound is exclusive).
    const seen = new Set(cursor.seen);
    const end = new Date(Date.parse(cursor.at) + 1).toISOString();
    for (let page = 1; rows.length <= limit; page++) {
      const data = ask({ fromTimestamp: cursor.at, toTimestamp: end, page: String(page), limit: String(MAX_LIMIT) });
      if (!Array.isArray(data)) return data;
      rows.push(...data.filter((row) => !seen.has(row.id)));
      if (data.length < MAX_LIMIT) break;
    }
  }
  const wanted = limit + 1 - rows.length;
  if (wanted > 0) {
    const older: Record<string, string> = cursor ? { toTimestamp: cursor.at } : {};
    const data = ask({ ...older, page: '1', limit: String(Math.min(MAX_LIMIT, wanted)) });
    if (!Array.isArray(data)) return data;
    rows.push(...data);
    // A full page of the route's largest still leaves the one row that tells of a next page.
    if (wanted > MAX_LIMIT && data.length === MAX_LIMIT) {
      const one = ask({ ...older, page: String(MAX_LIMIT + 1), limit: '1' });
      if (!Array.isArray(one)) return one;
      rows.push(...one);
    }
  }
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  let nextCursor: string | null = null;
  if (rows.length > limit && last) {
    const atLast = page.filter((row) => row.timestamp === last.timestamp).map((row) => row.id);
    nextCursor = encodeCursor({ at: last.timestamp, seen: last.timestamp === cursor?.at ? [...cursor.seen, ...atLast] : atLast });
  }
  // Each row's figures from its observations, read in slices, as the list route sums them (of
  // the filter's environments): a long trace on the page does not hold the server.
  const read = readSlices(api.context.store);
  const environments = params.getAll('environment').filter((value) => value !== '');
  const only = environments.length > 0 ? new Set(environments) : undefined;
  const data: TracesBody['data'] = [];
  for (const row of page) {
    const sums = await traceSums(read, row.id, only);
    data.push({ ...pick(row), latency: sums.spanMs / 1000, totalCost: sums.totalCost, totalTokens: sums.totalTokens });
  }
  return { ok: true, status: 200, body: { data, nextCursor } };
}

function pick(row: TraceRow): TraceRow {
  const { id, timestamp, name, userId, sessionId, environment, tags } = row;
  return { id, timestamp, name, userId, sessionId, environment, tags };
}
