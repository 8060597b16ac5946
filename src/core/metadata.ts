// A generation's metadata as the Langfuse worker turns an event body's `metadata` into its record
// (convertJsonSchemaToRecord) and keeps it (a map of strings: convertRecordValuesToString).
// Ingestion merges and stores it; `estimate` needs it to see tool definitions as the server does.

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
