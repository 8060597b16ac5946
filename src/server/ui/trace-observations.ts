// The observations of one trace for its page, by start time, a page of at most PAGE_LIMIT at a
// time with a cursor for the next: a trace of any size opens as fast as a small one, and the
// browser holds what it asked for, never the whole trace. Langfuse's trace view likewise loads the
// first observations by start time and says when there are more; the whole trace streams from
// its JSON download.
import { Buffer } from 'node:buffer';
import { type Prices, pricesOf, observationV1 } from '../handlers/observation-view.js';
import type { ServerReply } from '../http/router.js';
import type { InternalApi } from './internal-api.js';

export const PAGE_LIMIT = 1000;

interface Cursor {
  startTime: string;
  id: string;
}

export function traceObservations(api: InternalApi, query: URLSearchParams): ServerReply {
  const traceId = query.get('traceId');
  if (!traceId) return { status: 400, body: { message: 'traceId: required' } };
  const limit = Math.min(PAGE_LIMIT, Math.max(1, Number(query.get('limit') ?? PAGE_LIMIT) || PAGE_LIMIT));
  const after = decodeCursor(query.get('cursor'));
  if (after === null) return { status: 400, body: { message: 'cursor: not one this server gave' } };
  return api.context.store.read((tx) => {
    // One more than the page tells whether another follows.
    const rows = tx.observations.ofTraceAfter(traceId, after, limit + 1);
    const page = rows.slice(0, limit);
    const cache = new Map<string, Prices | undefined>();
    const data = page.map((o) => observationV1(o, pricesOf(tx, o.internalModelId, cache), true));
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor({ startTime: last.startTime, id: last.id }) : null;
    // The count only with the first page: the page shows it from then on.
    const total = after === undefined ? (nextCursor ? tx.observations.count({ traceId }) : page.length) : undefined;
    return { status: 200, body: { data, nextCursor, ...(total === undefined ? {} : { total }) } };
  });
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** undefined: no cursor (the first page); null: one that is not ours. */
function decodeCursor(text: string | null): Cursor | undefined | null {
  if (!text) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof value.startTime === 'string' && typeof value.id === 'string') return { startTime: value.startTime, id: value.id };
  } catch {
    // falls through to null
  }
  return null;
}
