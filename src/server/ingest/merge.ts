// How the Langfuse worker folds several events for one id into one record (IngestionService's
// mergeRecords/overwriteObject): the stored record first, then one partial record per event in
// time order. A later value replaces an earlier one, except that undefined and empty objects or
// arrays never replace anything, and an immutable field keeps the first value it got. Metadata
// is merged deeply; trace tags are the sorted union of every record's tags.
// The rule alone, not the tokenizer's index: merging loads no engine (the batch library entry).
import { parseJsonPrioritised } from '../../tokenizer/count-rules.js';

export type Partial = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** Copies JSON-like data so a merge never writes into a record it was given. */
function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = clone(value[key]);
    return out;
  }
  return value;
}

/**
 * lodash `merge` on JSON data: objects merge key by key, arrays index by index, any other value
 * (null included) replaces, and undefined leaves the target alone. Returns a new value.
 */
export function deepMerge(target: unknown, source: unknown): unknown {
  return mergeInto(clone(target), source);
}

/**
 * deepMerge into `target`, a value the caller owns (made by clone or by mergeInto): changed in
 * place where `source` merges into it, else replaced by a copy of `source`. Nothing of `source`
 * is kept by reference, so a later merge never writes into it.
 */
function mergeInto(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  if (Array.isArray(source)) {
    const out = Array.isArray(target) ? target : [];
    source.forEach((item, index) => {
      if (item !== undefined || !(index in out)) out[index] = mergeInto(out[index], item);
    });
    return out;
  }
  if (isPlainObject(source)) {
    const out = isPlainObject(target) ? target : {};
    for (const key of Object.keys(source)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      const value = source[key];
      if (value === undefined) continue;
      out[key] = mergeInto(out[key], value);
    }
    return out;
  }
  return source;
}

/**
 * Folds partial records into one, oldest first. The metadata is merged into one value of its own
 * (mergeInto), not copied again at each record: a long log of events merges in time that grows
 * with the metadata it brings, not with the log's length times the metadata's size.
 */
export function mergeRecords(records: readonly Partial[], immutable: ReadonlySet<string>, options: { tags?: boolean } = {}): Partial {
  let result: Partial = { metadata: {} };
  for (const record of records) {
    const next: Partial = { ...result };
    for (const key of Object.keys(record)) {
      if (key === 'metadata' || key === 'tags') continue;
      const value = record[key];
      if (value === undefined) continue;
      if (immutable.has(key) && result[key] !== undefined) continue;
      if (!immutable.has(key) && isEmptyObject(value) && result[key] !== undefined) continue;
      next[key] = value;
    }
    // Records carry {} when an event had no metadata, so this is a deep merge every time.
    next['metadata'] = mergeInto(result['metadata'], record['metadata'] ?? {});
    if (options.tags) {
      const union = new Set<string>([...((result['tags'] as string[] | undefined) ?? []), ...((record['tags'] as string[] | undefined) ?? [])]);
      next['tags'] = [...union].sort();
    }
    result = next;
  }
  return result;
}

/**
 * Metadata as the server keeps it (a map of strings: anything but a string is JSON-encoded) and
 * returns it (each value JSON-parsed when it parses): `{"n": 1}` and `{"n": "1"}` both read back
 * as `{"n": 1}`. The read API answers from this form.
 */
export function storedMetadata(metadata: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(metadata)) return out;
  for (const key of Object.keys(metadata)) {
    const value = metadata[key];
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    out[key] = parseJsonPrioritised(text);
  }
  return out;
}


/**
 * Stored metadata as the server's row holds it (every value a string), for merging a stored
 * record the way the server merges its row: an object sent later replaces a stored nested
 * object instead of merging into it. The OpenTelemetry path merges each span with the row.
 */
export function rowMetadata(metadata: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(metadata)) {
    const value = metadata[key];
    out[key] = typeof value === 'string' && parseJsonPrioritised(value) === value ? value : JSON.stringify(value);
  }
  return out;
}

/**
 * Stored metadata as the events that produced it would carry it, for merging a stored record the
 * way the server re-merges every event of an id sent through the batch endpoint: nested objects
 * merge key by key across requests. Strings that would parse are re-quoted so that they read back
 * unchanged.
 */
export function eventMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(metadata)) {
    const value = metadata[key];
    out[key] = typeof value === 'string' && parseJsonPrioritised(value) !== value ? JSON.stringify(value) : value;
  }
  return out;
}
