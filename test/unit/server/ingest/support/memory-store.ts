// An in-memory stand-in for the store: lookups over maps, and the writes of each request applied
// to them, so tests can run several requests in a row against the pure pipeline. The records'
// accessors (`observations.get(id)`) give the records; `logs` the event logs kept with them.
import type { ModelDefinition } from '../../../../../src/core/models/types.js';
import { builtInDefinitions } from '../../../../../src/data/catalogue.js';
import { packObservationLog, unpackObservationLog } from '../../../../../src/server/ingest/log-pack.js';
import type { EventLog, IngestLookups, IngestWrites, PromptRef, Stored } from '../../../../../src/server/ingest/types.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../../../../../src/server/records.js';

function pick<R>(records: Map<string, R>, logs: Map<string, EventLog | null>, ids: readonly string[]): Map<string, Stored<R>> {
  const out = new Map<string, Stored<R>>();
  for (const id of ids) {
    const record = records.get(id);
    // A round trip through JSON, as the database keeps them.
    if (record) out.set(id, { record: structuredClone(record), log: JSON.parse(JSON.stringify(logs.get(id) ?? null)) as EventLog | null });
  }
  return out;
}

export class MemoryStore implements IngestLookups {
  traces = new Map<string, TraceRecord>();
  observations = new Map<string, ObservationRecord>();
  scores = new Map<string, ScoreRecord>();
  logs = { traces: new Map<string, EventLog | null>(), observations: new Map<string, EventLog | null>(), scores: new Map<string, EventLog | null>() };
  events = new Set<string>();
  prompts: PromptRef[] = [];
  custom: ModelDefinition[] = [];
  private all: readonly ModelDefinition[] | undefined;

  storedTraces(ids: readonly string[]) {
    return pick(this.traces, this.logs.traces, ids);
  }
  storedObservations(ids: readonly string[]) {
    // Logs packed against their record and unpacked, as the ingestion route stores and reads them.
    const out = pick(this.observations, this.logs.observations, ids);
    for (const stored of out.values()) {
      const packed = JSON.parse(JSON.stringify(packObservationLog(stored.log, stored.record))) as unknown;
      stored.log = unpackObservationLog(packed, stored.record);
    }
    return out;
  }
  storedScores(ids: readonly string[]) {
    return pick(this.scores, this.logs.scores, ids);
  }
  seenEvents(ids: readonly string[]) {
    return new Set(ids.filter((id) => this.events.has(id)));
  }
  prompt(name: string, version: number) {
    return this.prompts.find((p) => p.name === name && p.version === version);
  }
  definitions() {
    this.all ??= [...this.custom, ...builtInDefinitions()];
    return this.all;
  }
  setCustom(definitions: ModelDefinition[]) {
    this.custom = definitions;
    this.all = undefined;
  }
  apply(writes: IngestWrites) {
    for (const { record, log } of writes.traces) {
      this.traces.set(record.id, record);
      this.logs.traces.set(record.id, log);
    }
    for (const { record, log } of writes.observations) {
      this.observations.set(record.id, record);
      this.logs.observations.set(record.id, log);
    }
    for (const { record, log } of writes.scores) {
      this.scores.set(record.id, record);
      this.logs.scores.set(record.id, log);
    }
    for (const e of writes.eventIds) this.events.add(e);
  }
}
