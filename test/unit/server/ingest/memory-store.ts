// An in-memory stand-in for the store: lookups over maps, and the writes of each request applied
// to them, so tests can run several requests in a row against the pure pipeline.
import type { ModelDefinition } from '../../../../src/core/models/types.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import type { IngestLookups, IngestWrites, PromptRef } from '../../../../src/server/ingest/types.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../../../../src/server/records.js';

export class MemoryStore implements IngestLookups {
  traces = new Map<string, TraceRecord>();
  observations = new Map<string, ObservationRecord>();
  scores = new Map<string, ScoreRecord>();
  events = new Set<string>();
  prompts: PromptRef[] = [];
  custom: ModelDefinition[] = [];
  private all: readonly ModelDefinition[] | undefined;

  trace(id: string) {
    return this.traces.get(id);
  }
  observation(id: string) {
    return this.observations.get(id);
  }
  score(id: string) {
    return this.scores.get(id);
  }
  eventSeen(id: string) {
    return this.events.has(id);
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
    for (const t of writes.traces) this.traces.set(t.id, t);
    for (const o of writes.observations) this.observations.set(o.id, o);
    for (const s of writes.scores) this.scores.set(s.id, s);
    for (const e of writes.eventIds) this.events.add(e);
  }
}
