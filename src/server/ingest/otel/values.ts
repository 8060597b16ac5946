// OTLP values as plain JavaScript, the way Langfuse reads them: attribute values (JSON and
// protobuf shapes alike), span ids, and nanosecond timestamps.

export type Attributes = Record<string, unknown>;

type AnyValue = Record<string, unknown>;

/** An int64 as JSON (decimal string), protobuf (Long-like {low, high}) or a plain number. */
export function intValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const parsed = Number(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  if (value && typeof value === 'object') {
    const { high, low } = value as { high?: unknown; low?: unknown };
    if (high === 0) return low as number;
    if (high === -1 && low === -1) return -1;
    if (typeof high === 'number') return high * 2 ** 32 + (low as number);
  }
  return undefined;
}

/**
 * An AnyValue as a JavaScript value. Doubles sent as strings become numbers when finite;
 * key-value lists, bytes and anything unreadable are kept as the JSON of the AnyValue itself.
 */
export function plainValue(value: AnyValue | null | undefined): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return JSON.stringify(value);
  if (value['stringValue'] !== undefined) return value['stringValue'];
  if (value['doubleValue'] !== undefined) {
    const d = value['doubleValue'];
    if (typeof d === 'string') {
      const parsed = Number(d);
      return Number.isFinite(parsed) ? parsed : d;
    }
    return d;
  }
  if (value['boolValue'] !== undefined) return value['boolValue'];
  const array = value['arrayValue'] as { values?: unknown } | undefined;
  if (array && array.values !== undefined) return Array.isArray(array.values) ? array.values.map((v) => plainValue(v as AnyValue)) : [];
  if (value['intValue'] !== undefined) {
    const parsed = intValue(value['intValue']);
    if (parsed !== undefined) return parsed;
  }
  return JSON.stringify(value);
}

/** A KeyValue list as an object; a later duplicate key wins. */
export function attributesOf(list: unknown): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(list)) return out;
  for (const entry of list as Array<{ key?: unknown; value?: AnyValue }>) {
    if (!entry || typeof entry !== 'object') continue;
    const key = String(entry.key);
    if (key === '__proto__') continue;
    out[key] = plainValue(entry.value);
  }
  return out;
}

/** A trace or span id: JSON sends hex strings, protobuf bytes, the Python SDK arrays of ints. */
export function parseId(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return Buffer.from(data).toString('hex');
  if (Array.isArray(data)) return Buffer.from(data as number[]).toString('hex');
  if (data && typeof data === 'object' && Array.isArray((data as { data?: unknown }).data)) return Buffer.from((data as { data: number[] }).data).toString('hex');
  throw new TypeError('not an id');
}

/** A span's id field, unwrapping the {type: "Buffer", data} shape of a Buffer that went through JSON. */
export function idField(value: unknown): string {
  const inner = value && typeof value === 'object' && !(value instanceof Uint8Array) && !Array.isArray(value) ? ((value as { data?: unknown }).data ?? value) : value;
  return parseId(inner);
}

/** Nanoseconds since the epoch (string, number or {high, low}) as an ISO time, cut to milliseconds. */
export function nanoToIso(timestamp: unknown): string | undefined {
  try {
    if (timestamp === null || timestamp === undefined) return undefined;
    if (typeof timestamp === 'string') {
      if (timestamp.trim() === '') return undefined;
      return new Date(Number(BigInt(timestamp) / 1_000_000n)).toISOString();
    }
    if (typeof timestamp === 'number') return Number.isFinite(timestamp) ? new Date(timestamp / 1e6).toISOString() : undefined;
    if (typeof timestamp === 'object') {
      const { high, low } = timestamp as { high?: unknown; low?: unknown };
      if (typeof high !== 'number' || typeof low !== 'number') return undefined;
      const nanos = (BigInt(high) << 32n) | BigInt(low >>> 0);
      return new Date(Number(nanos / 1_000_000n)).toISOString();
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** Start and end of a span; a missing edge takes the other, and both missing take `now`. */
export function spanTimes(start: unknown, end: unknown, now: Date): { startTimeISO: string; endTimeISO: string } {
  const startIso = nanoToIso(start);
  const endIso = nanoToIso(end);
  const fallback = now.toISOString();
  return { startTimeISO: startIso ?? endIso ?? fallback, endTimeISO: endIso ?? startIso ?? fallback };
}

/** Anything with content: not null, undefined or "", and not an empty array or object. */
export function hasMeaningfulValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object, or JSON text of one, as an object; undefined otherwise. */
export function parseJsonPayload(payload: unknown): any {
  if (payload && typeof payload === 'object') return payload;
  if (typeof payload === 'string') {
    try {
      return JSON.parse(payload);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function isValidDateString(value: unknown): boolean {
  return !Number.isNaN(new Date(value as string).getTime());
}
