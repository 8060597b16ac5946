// The traces list of the UI: the v3 list route's rows (newest first) with each trace's tokens,
// paged by a cursor (the last row's timestamp and the ids shown at that timestamp), so every page
// costs the same however deep it is.
import { Buffer } from 'node:buffer';
import type { InternalApi } from './internal-api.js';

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
  latency: number;
  totalCost: number;
}

export interface TracesBody {
  data: Array<TraceRow & { totalTokens: number }>;
  nextCursor: string | null;
}

/** A page (`ok`), or the error answer of the list route. */
export type TracesPage = { ok: true; status: 200; body: TracesBody } | { ok: false; status: number; body?: unknown };

export function listTraces(api: InternalApi, params: URLSearchParams): TracesPage {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(params.get('limit') ?? 50) || 50));
  const cursor = decodeCursor(params.get('cursor'));
  if (cursor === null) return { ok: false, status: 400, body: { message: 'cursor: not one this server gave' } };
  const query = new URLSearchParams({ orderBy: 'timestamp.desc', fields: 'core,metrics', page: '1', limit: String(Math.min(MAX_LIMIT, limit + (cursor?.seen.length ?? 0) + 1)) });
  for (const key of FILTERS) for (const value of params.getAll(key)) if (value !== '') query.append(key, value);
  if (cursor) {
    // The list's upper bound is exclusive: one millisecond on takes in the rows at the cursor.
    const to = new Date(Date.parse(cursor.at) + 1).toISOString();
    const given = query.get('toTimestamp');
    if (!given || Date.parse(given) > Date.parse(to)) query.set('toTimestamp', to);
  }
  const reply = api.call('GET', '/api/public/traces', query);
  if (reply.status !== 200) return { ok: false, ...reply };
  const seen = new Set(cursor?.seen ?? []);
  const rows = (reply.body as { data: TraceRow[] }).data.filter((row) => !(cursor && row.timestamp === cursor.at && seen.has(row.id)));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  let nextCursor: string | null = null;
  if (rows.length > limit && last) {
    const atLast = page.filter((row) => row.timestamp === last.timestamp).map((row) => row.id);
    nextCursor = encodeCursor({ at: last.timestamp, seen: last.timestamp === cursor?.at ? [...seen, ...atLast] : atLast });
  }
  const tokens = api.context.store.read((tx) => new Map(page.map((row) => [row.id, totalTokens(tx.observations.ofTrace(row.id))])));
  return { ok: true, status: 200, body: { data: page.map((row) => ({ ...pick(row), totalTokens: tokens.get(row.id) ?? 0 })), nextCursor } };
}

function pick(row: TraceRow): TraceRow {
  const { id, timestamp, name, userId, sessionId, environment, tags, latency, totalCost } = row;
  return { id, timestamp, name, userId, sessionId, environment, tags, latency, totalCost };
}

/** Tokens as the service's list counts them: each observation's total, or the sum of its usage. */
function totalTokens(observations: ReadonlyArray<{ usageDetails: Record<string, number> }>): number {
  let sum = 0;
  for (const { usageDetails } of observations) {
    if (typeof usageDetails.total === 'number') sum += usageDetails.total;
    else for (const value of Object.values(usageDetails)) sum += value;
  }
  return sum;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** undefined: no cursor (the first page); null: one that is not ours. */
function decodeCursor(text: string | null): Cursor | undefined | null {
  if (!text) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof value.at === 'string' && !Number.isNaN(Date.parse(value.at)) && Array.isArray(value.seen) && value.seen.every((id) => typeof id === 'string')) {
      return { at: value.at, seen: value.seen };
    }
  } catch {
    // falls through to null
  }
  return null;
}
