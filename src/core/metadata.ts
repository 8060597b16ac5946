// A generation's metadata as the Langfuse worker turns an event body's `metadata` into its record
// (convertJsonSchemaToRecord) and keeps it (a map of strings: convertRecordValuesToString).
// Ingestion merges and stores it; `estimate` needs it to see tool definitions as the server does.
import { parseJsonPrioritised } from '../tokenizer/count-rules.js';

/** A body's metadata as a record: an object as it is, a literal or an array under "metadata". */
export function metadataRecord(metadata: unknown): Record<string, unknown> {
  if (metadata === null || metadata === undefined) return {};
  if (typeof metadata === 'string' || typeof metadata === 'number' || typeof metadata === 'boolean') return { metadata: String(metadata) };
  if (Array.isArray(metadata)) return { metadata: JSON.stringify(metadata) };
  return metadata as Record<string, unknown>;
}

/** The stored string map of a metadata record: every value that is not a string JSON-encoded. */
export function metadataStrings(metadata: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof metadata !== 'object' || metadata === null) return out;
  for (const [key, value] of Object.entries(metadata)) if (value !== undefined) out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  return out;
}

/**
 * One metadata value (as read back: JSON-parsed where its stored text parses) as the text the
 * worker keeps: a string as it is, anything else as its JSON.
 */
export function metadataValueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/**
 * The first `limit` code points of a text, as ClickHouse's leftUTF8 counts them: a character
 * outside the Basic Multilingual Plane (a surrogate pair here) is one.
 */
export function leftCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (count === limit) return text.slice(0, i);
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return text;
}

/**
 * Metadata as read back (each value parsed from its stored text) with every stored text cut to
 * `limit` code points and parsed again, as Langfuse's v2 observations read it from events_core,
 * whose view keeps `leftUTF8(value, 200)` of each value. A cut object or array no longer parses
 * and so comes back as its cut JSON text; a value within the limit comes back unchanged.
 */
export function cutMetadataValues(metadata: Record<string, unknown>, limit: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(metadata)) {
    const value = metadata[key];
    // The stored text: a string that reads back as itself was kept as it is; any other value
    // (a string included that came from quoted JSON) as its JSON.
    const text = typeof value === 'string' && parseJsonPrioritised(value) === value ? value : (JSON.stringify(value) ?? '');
    const cut = leftCodePoints(text, limit);
    out[key] = cut === text ? value : parseJsonPrioritised(cut);
  }
  return out;
}
