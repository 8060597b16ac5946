// Ids of ingested events, for de-duplication of retried batches.
import type { Statements } from './sqlite.js';

/** Each call is one statement. */
export class EventStore {
  constructor(private readonly sql: Statements) {}

  has(id: string): boolean {
    return this.seen([id]).size > 0;
  }

  /** Which of these event ids were ingested before. */
  seen(ids: readonly string[]): Set<string> {
    if (ids.length === 0) return new Set();
    const rows = this.sql.rows<{ id: string }>('SELECT id FROM ingested_events WHERE id IN (SELECT value FROM json_each(?))', JSON.stringify(ids));
    return new Set(rows.map((row) => row.id));
  }

  /** Records event ids as ingested; returns how many were new. */
  record(ids: readonly string[], at: string): number {
    if (ids.length === 0) return 0;
    // "WHERE true" tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join.
    return this.sql.run('INSERT INTO ingested_events (id, created_at) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT (id) DO NOTHING', at, JSON.stringify(ids));
  }
}
