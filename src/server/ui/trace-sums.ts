// A trace's latency, cost and tokens summed from its observations' times, costs and tokens, read
// a slice at a time with the event loop's turn between slices: a trace of any length is summed
// without holding the server (one query over a long trace's rows would).
import type { ReadSlice } from '../http/json-stream.js';

/** Rows a slice reads: small ones (times and numbers). */
const SLICE = 2000;

export interface TraceSums {
  /** Seconds from the first start to the last end (or, without ends, the last start): the trace's own answer. */
  latency: number;
  /** Milliseconds from the earliest start or end to the latest: the traces list's. */
  spanMs: number;
  totalCost: number;
  totalTokens: number;
}

/** `environments`: only the observations of these (the traces list's filter), when given. */
export async function traceSums(read: ReadSlice, traceId: string, environments?: ReadonlySet<string>): Promise<TraceSums> {
  let first: number | undefined;
  let lastStart: number | undefined;
  let lastEnd: number | undefined;
  let earliest = Infinity;
  let latest = -Infinity;
  let count = 0;
  let totalCost = 0;
  let totalTokens = 0;
  let at: { startTime: string; id: string } | undefined;
  for (;;) {
    const rows = await read((tx) => tx.observations.timesOfTraceAfter(traceId, at, SLICE));
    for (const row of rows) {
      if (environments && !environments.has(row.environment)) continue;
      const start = Date.parse(row.startTime);
      first ??= start;
      lastStart = start;
      const end = row.endTime ? Date.parse(row.endTime) : undefined;
      if (end !== undefined) lastEnd = Math.max(lastEnd ?? -Infinity, end);
      earliest = Math.min(earliest, start, end ?? start);
      latest = Math.max(latest, start, end ?? start);
      totalCost += row.totalCost ?? 0;
      totalTokens += row.totalTokens;
    }
    count += rows.filter((row) => !environments || environments.has(row.environment)).length;
    const last = rows[rows.length - 1];
    if (rows.length < SLICE || !last) break;
    at = { startTime: last.startTime, id: last.id };
  }
  const ms = first === undefined ? undefined : lastEnd !== undefined ? lastEnd - first : count > 1 ? lastStart! - first : undefined;
  return { latency: ms === undefined ? 0 : ms / 1000, spanMs: count === 0 ? 0 : latest - earliest, totalCost, totalTokens };
}
