// The ingestion pipeline's contract with whoever runs it: what it may look up, and what it asks
// to be written. It reads nothing by itself (no database, no files): the HTTP route hands it
// lookups over the store and applies the writes in the same transaction.
import type { ModelDefinition } from '../../core/models/types.js';
import type { TokenCounter } from '../../tokenizer/index.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../records.js';

/** Who sends: a secret-key (project) request, or a public key alone (scores and logs only). */
export interface IngestAuth {
  projectId: string;
  accessLevel: 'project' | 'scores';
}

/** The prompt version a generation links to by name and version. */
export interface PromptRef {
  id: string;
  name: string;
  version: number;
}

/**
 * One ingestion event as it is kept with the record it went into: the validated event without
 * the body's id, input and output (the record keeps the input and output that won).
 */
export interface LoggedEvent {
  /**
   * The event's id: an event a record's log holds is not applied to it again. (Logs written before
   * it was kept have none; those events' ids are in the store's table of ingested event ids.)
   */
  id?: string;
  type: string;
  timestamp: string;
  body: Record<string, unknown>;
  /** Bit 1: the event carried a truthy input; bit 2: a truthy output. */
  io?: number;
}

/** The events a record was built from, in the order they arrived. */
export interface EventLog {
  events: LoggedEvent[];
  /**
   * The input the winning event sent, when it differs from the stored one (tool definitions from
   * the metadata were moved into the stored input); otherwise the stored input is that input.
   */
  rawInput?: unknown;
}

/**
 * A stored record and the events it was built from. `log` is null for records stored before
 * events were kept; OpenTelemetry spans, which the service merges with the stored record alone,
 * leave the log as it was.
 */
export interface Stored<R> {
  record: R;
  log: EventLog | null;
}

/** Lookups take every id of a request at once: one query per kind of record. */
export interface IngestLookups {
  storedTraces(ids: readonly string[]): ReadonlyMap<string, Stored<TraceRecord>>;
  storedObservations(ids: readonly string[]): ReadonlyMap<string, Stored<ObservationRecord>>;
  storedScores(ids: readonly string[]): ReadonlyMap<string, Stored<ScoreRecord>>;
  /**
   * Which of these event ids an earlier request recorded as ingested without keeping them in a
   * record's log: events applied before logs kept event ids, events of deleted traces, events that
   * left no record. (Events in the log of the record they describe are found there.)
   */
  seenEvents(ids: readonly string[]): ReadonlySet<string>;
  prompt(name: string, version: number): PromptRef | undefined;
  /** The project's model definitions and the built-in catalogue, as they are now. */
  definitions(): readonly ModelDefinition[];
}

export interface IngestOptions {
  /** Ingestion time: createdAt/updatedAt, and the time of events that carry none. */
  now: Date;
  /** The token counter for generations sent without usage (src/tokenizer's engine). */
  count: TokenCounter;
  /** Ids for observations sent without a trace id (the server gives them a random one). */
  newId?: () => string;
}

export interface EventSuccess {
  id: string;
  status: number;
}

export interface EventError {
  id: string;
  status: number;
  message?: string;
  error?: string;
}

/** The 207 body of POST /api/public/ingestion. */
export interface BatchResponse {
  successes: EventSuccess[];
  errors: EventError[];
}

/**
 * Records to upsert (each replaces the stored one with its id, log included), and the ids of the
 * events now applied that none of their logs holds (to record as ingested).
 */
export interface IngestWrites {
  traces: Stored<TraceRecord>[];
  observations: Stored<ObservationRecord>[];
  scores: Stored<ScoreRecord>[];
  eventIds: string[];
}

export interface BatchResult {
  response: BatchResponse;
  writes: IngestWrites;
}
