// The model definitions' "Last used" (Langfuse: the latest start time of a GENERATION with the
// model's id) kept as one row per model, moved forward by each request that writes generations,
// in its transaction. Per request, not per observation: one write per model the request used.
import type { ObservationRecord } from '../records.js';
import type { Tx } from '../store/index.js';
import type { Stored } from './types.js';

/** Records when each model the written generations priced with was last used. */
export function noteModelUse(tx: Tx, observations: readonly Stored<ObservationRecord>[]): void {
  const latest = new Map<string, string>();
  for (const { record } of observations) {
    if (record.type !== 'GENERATION' || !record.internalModelId) continue;
    const known = latest.get(record.internalModelId);
    if (known === undefined || record.startTime > known) latest.set(record.internalModelId, record.startTime);
  }
  if (latest.size > 0) tx.models.noteUse(latest);
}
