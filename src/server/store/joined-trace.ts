// The fields of an observation's or score's trace that the metrics views read, joined as `t`:
// the columns to select and what they read back as.

export const JOINED_TRACE_COLUMNS = `t.name AS trace_name, t.user_id, t.session_id, t.release, t.version AS trace_version, json_extract(t.record, '$.tags') AS tags`;

export interface JoinedTraceColumns {
  trace_name: string | null;
  user_id: string | null;
  session_id: string | null;
  release: string | null;
  trace_version: string | null;
  tags: string | null;
}

/** A trace's tags as its record holds them (JSON text), [] when it has none. */
export const tagsOf = (text: string | null) => (text ? (JSON.parse(text) as string[]) : []);

/** The joined trace's fields as an observation of the metrics views carries them. */
export function joinedTraceFields(row: JoinedTraceColumns) {
  return { traceName: row.trace_name, userId: row.user_id, sessionId: row.session_id, release: row.release, traceVersion: row.trace_version, tags: tagsOf(row.tags) };
}
