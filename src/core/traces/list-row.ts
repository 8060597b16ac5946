// A trace of a list as a row: from the v3 trace list, or from a root observation of the v2 API
// where that list is gone (with the filters that API lacks applied here, and the numbers of the
// Metrics API: commands/traces/listing.ts).
import { lenientNumber } from '../numbers.js';

export interface TraceRow {
  id: string;
  timestamp: string | null;
  name: string | null;
  userId: string | null;
  sessionId: string | null;
  tags: string[];
  observations: number | null;
  totalCost: number | null;
  latency: number | null;
}

export function readTraceRow(item: Record<string, unknown>): TraceRow {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const cost = lenientNumber(item.totalCost);
  const latency = lenientNumber(item.latency);
  return {
    id: String(item.id),
    timestamp: str(item.timestamp),
    name: str(item.name),
    userId: str(item.userId),
    sessionId: str(item.sessionId),
    tags: Array.isArray(item.tags) ? item.tags.map(String) : [],
    // The v3 list gives the observations' ids; a list through the v2 APIs their count.
    observations: Array.isArray(item.observations) ? item.observations.length : lenientNumber(item.observationCount),
    // The legacy API answers -1 when a metric was not computed.
    totalCost: cost !== null && cost >= 0 ? cost : null,
    latency: latency !== null && latency >= 0 ? latency : null,
  };
}

/** The filters of a trace list that the v2 observations API cannot apply to root observations. */
export interface LocalTraceFilters {
  name?: string | undefined;
  tag?: readonly string[] | undefined;
  release?: string | undefined;
  version?: string | undefined;
}

export function hasLocalFilters(filters: LocalTraceFilters): boolean {
  return filters.name !== undefined || filters.tag !== undefined || filters.release !== undefined || filters.version !== undefined;
}

/** Whether a root observation's trace passes the filters the API could not apply. */
export function rootMatches(o: Record<string, unknown>, filters: LocalTraceFilters): boolean {
  const name = (o.traceName as string | null | undefined) ?? (o.name as string | null | undefined) ?? null;
  const tags = Array.isArray(o.tags) ? o.tags : [];
  if (filters.name !== undefined && name !== filters.name) return false;
  if (filters.tag && !filters.tag.every((tag) => tags.includes(tag))) return false;
  if (filters.release !== undefined && o.release !== filters.release) return false;
  if (filters.version !== undefined && o.version !== filters.version) return false;
  return true;
}

/** A root observation as an item of the legacy trace list (as far as it tells). */
export function rootAsTrace(o: Record<string, unknown>, traceId: string): Record<string, unknown> {
  return {
    id: traceId,
    timestamp: o.startTime ?? null,
    name: o.traceName ?? o.name ?? null,
    userId: o.userId ?? null,
    sessionId: o.sessionId ?? null,
    environment: o.environment ?? null,
    release: o.release ?? null,
    version: o.version ?? null,
    tags: o.tags ?? [],
    latency: o.latency ?? null,
    rootObservationId: o.id,
  };
}
