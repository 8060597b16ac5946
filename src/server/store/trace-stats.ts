// The traces list's stats of its traces (TraceStore.stats) read in slices, with the event loop's
// turn between them, for a server without a read thread (an in-memory one): one query over a
// long trace's rows would hold the loop for as long as it reads. The answer is the one `stats`
// gives over the same rows: the rows come in the order its query reads them, the cost is added
// as SQLite's SUM adds (sqlite-sum.ts), and the first and last times are compared as text, as
// MIN and MAX compare them.
import { SqliteSum } from './sqlite-sum.js';
import type { StatsCursor, TraceFilter, TraceStats } from './traces.js';
import type { ReadSlice } from './tx.js';

/** Rows a slice reads: a few small columns each. */
const SLICE = 2000;

export async function traceStatsInSlices(
  read: ReadSlice,
  ids: readonly string[],
  filter: TraceFilter,
  parts: { ids: boolean; metrics: boolean },
): Promise<Map<string, TraceStats>> {
  const stats = new Map<string, TraceStats>(ids.map((id) => [id, { observationIds: [], scoreIds: [], latencyMs: 0, totalCost: 0 }]));
  for (const id of ids) {
    const entry = stats.get(id)!;
    if (parts.metrics || parts.ids) {
      const cost = new SqliteSum();
      let first: string | undefined;
      let last: string | undefined;
      let after: StatsCursor | undefined;
      for (;;) {
        const rows = await read((tx) => tx.traces.statsRowsAfter(id, filter, after, SLICE, parts.ids));
        for (const row of rows) {
          if (first === undefined || row.startTime < first) first = row.startTime;
          if (last === undefined || row.startTime > last) last = row.startTime;
          if (row.endTime !== null && row.endTime < first) first = row.endTime;
          if (row.endTime !== null && row.endTime > last) last = row.endTime;
          cost.add(row.totalCost);
          if (parts.ids) entry.observationIds.push(row.id!);
        }
        const end = rows[rows.length - 1];
        if (rows.length < SLICE || !end) break;
        after = { startTime: end.startTime, rowid: end.rowid };
      }
      if (parts.metrics) {
        if (first && last) entry.latencyMs = Date.parse(last) - Date.parse(first);
        entry.totalCost = cost.result() ?? 0;
      }
    }
    if (!parts.ids) continue;
    let afterScore = 0;
    for (;;) {
      const rows = await read((tx) => tx.traces.scoreIdsAfter(id, filter, afterScore, SLICE));
      for (const row of rows) entry.scoreIds.push(row.id);
      const end = rows[rows.length - 1];
      if (rows.length < SLICE || !end) break;
      afterScore = end.rowid;
    }
  }
  return stats;
}
