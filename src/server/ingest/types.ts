// The ingestion pipeline's contract with whoever runs it: what it may look up, and what it asks
// to be written. It reads nothing by itself (no database, no files): the HTTP route hands it
// lookups over the store and applies the writes in the same transaction.
import type { ModelDefinition } from '../../core/models/types.js';
import type { TokenCounter } from '../../core/tokenize.js';
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

export interface IngestLookups {
  trace(id: string): TraceRecord | undefined;
  observation(id: string): ObservationRecord | undefined;
  score(id: string): ScoreRecord | undefined;
  /** Whether an event with this id was ingested by an earlier request (events are applied once). */
  eventSeen(id: string): boolean;
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

/** Records to upsert (each replaces the stored one with its id) and the event ids now applied. */
export interface IngestWrites {
  traces: TraceRecord[];
  observations: ObservationRecord[];
  scores: ScoreRecord[];
  eventIds: string[];
}

export interface BatchResult {
  response: BatchResponse;
  writes: IngestWrites;
}
