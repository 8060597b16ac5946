// The store's API: what handlers and ingestion use. A request runs in one transaction:
//
//   const reply = store.write((tx) => {          // or store.read for a request that only reads
//     const trace = tx.traces.get(id);            // TraceRecord | undefined
//     tx.traces.put({ ...trace, ...changes });    // stores the whole record (upsert on id)
//     tx.observations.get(id) / .put(record, events)  // ObservationRecord, upsert on id
//     tx.scores.get(id) / .put(record)            // ScoreRecord, upsert on id
//     tx.observations.withEvents(ids)             // Map id -> { record, events }: what ingestion merges into
//     tx.events.seen(eventIds) / .record(eventIds, at)  // event ids no record log holds, for de-duplication
//     tx.traces.delete(ids)                       // with their observations and scores
//     tx.models.allTexts(read), tx.prompts.get(name, version) ...
//   });
//
// The function passed to read/write is synchronous; anything it throws rolls the whole request
// back, and a write the disk refuses throws StoreWriteError after rolling back. In the HTTP layer
// every route handler already runs inside such a transaction (src/server/http/router.ts), so
// handlers receive `tx` and never open one. Records are the shapes in src/server/records.ts,
// stored whole: a field added to a record there is kept without a schema change.
export { Store, StoreWriteError, DATABASE_FILE, LOCK_FILE, SERVER_INFO_FILE, LEGACY_LOCK_FILE, type OpenedStore, type StoreOptions } from './store.js';
export { Tx, ProjectStore, type ReadSlice } from './tx.js';
export { PromptStore, type PromptListFilter, type PromptListPage, type Dependent } from './prompts.js';
export { ModelStore } from './models.js';
export { TraceStore, TRACE_ORDER_COLUMNS, type TraceFilter, type TraceOrder, type TraceStats, type TraceStatsJson } from './traces.js';
export { traceStatsInSlices } from './trace-stats.js';
export { ObservationStore, type ObservationFilter, type ObservationCursor, type ObservationForMetrics, type RowSizes } from './observations.js';
export type { TextPick } from './observation-row.js';
export { type ScoreCursor, ScoreStore, type ScoreFilter } from './scores.js';
export { EventStore } from './events.js';
export { type WithEvents } from './with-events.js';
export { type ColumnFilter, type FilterColumnKey } from './filter-columns.js';
export { filterConditions, UnsupportedFilterError } from './where.js';
export { STATE_BACKUP_FILE } from './import-state.js';
export { metricsAnswer } from './metrics-answer.js';
export { metricsV1Answer } from './metrics-v1.js';
