// What an export asks the server for and how it writes it, as its checkpoint records it, and how
// the request of a resumed export differs from the one that started it: a resume must not change
// what is exported halfway through the file.
import { type FieldSelection, groupColumns } from './fields.js';
import type { Format } from './writer.js';

export interface ExportRequest {
  format: Format;
  selection: FieldSelection;
  /** The query parameters (filters, field groups, expandMetadata); unset ones are undefined. */
  query: Readonly<Record<string, unknown>>;
  /** At most this many observations; undefined: all. */
  max: number | undefined;
  pageSize: number;
}

/** What a checkpoint keeps of the request it was started with. */
export interface ExportRecord {
  format: Format;
  query: Record<string, string | string[]>;
  /** CSV's header, or the columns picked by name; null: whole objects. */
  columns: string[] | null;
  max: number | null;
  pageSize: number;
}

/** The query as the checkpoint keeps it: only the parameters that are set, as strings. */
export function storedQuery(query: Readonly<Record<string, unknown>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    out[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

function columnsOf(request: ExportRequest): string[] | null {
  if (request.format !== 'csv') return request.selection.columns;
  return request.selection.columns ?? groupColumns(request.selection.groups);
}

export function recordOf(request: ExportRequest): ExportRecord {
  return { format: request.format, query: storedQuery(request.query), columns: columnsOf(request), max: request.max ?? null, pageSize: request.pageSize };
}

/** How `wanted` differs from what the export was started with, each difference said in words. */
export function differencesFrom(then: ExportRecord, wanted: ExportRequest): string[] {
  const out: string[] = [];
  const now = recordOf(wanted);
  for (const key of new Set([...Object.keys(now.query), ...Object.keys(then.query)])) {
    if (JSON.stringify(now.query[key]) !== JSON.stringify(then.query[key])) out.push(`${key} (${JSON.stringify(then.query[key] ?? null)} then, ${JSON.stringify(now.query[key] ?? null)} now)`);
  }
  if (now.format !== then.format) out.push(`format (${then.format} then, ${now.format} now)`);
  if (now.max !== then.max) out.push(`limit (${then.max ?? 'none'} then, ${now.max ?? 'none'} now)`);
  if (JSON.stringify(now.columns) !== JSON.stringify(then.columns)) out.push('fields');
  if (now.pageSize !== then.pageSize) out.push(`page size (${then.pageSize} then, ${now.pageSize} now)`);
  return out;
}
