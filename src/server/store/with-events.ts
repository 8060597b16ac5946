// Traffic records are stored whole, as JSON, beside the ingestion events each was built from
// (also JSON; the store never looks inside). Ingestion reads both back to merge new events in.
import type { Statements } from './sqlite.js';

/** A stored record with the ingestion events it was built from (null: stored without them). */
export interface WithEvents<R> {
  record: R;
  events: unknown;
}

export const eventsText = (events: unknown): string | null => (events === null || events === undefined ? null : JSON.stringify(events));

export const parseEvents = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

/** A record from its stored JSON. */
export const parseRecord = <R>(row: { record: string }): R => JSON.parse(row.record) as R;

/** Records (with their events) of the ids stored, in one statement however many ids there are. */
export function withEvents<R>(sql: Statements, table: 'traces' | 'observations' | 'scores', ids: readonly string[]): Map<string, WithEvents<R>> {
  const found = new Map<string, WithEvents<R>>();
  if (ids.length === 0) return found;
  const rows = sql.rows<{ id: string; record: string; events: string | null }>(`SELECT id, record, events FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`, JSON.stringify(ids));
  for (const row of rows) found.set(row.id, { record: parseRecord<R>(row), events: parseEvents(row.events) });
  return found;
}
