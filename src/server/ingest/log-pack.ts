// An observation's event log as the store keeps it: each kept event without the body fields whose
// value the record holds too (most of them, as a record is usually made of one event), and
// without its timestamp when that is the record's start time. A bit per field says which were
// left out; unpacking copies them back from the record stored with the log. Lossless: a field is
// left out only when its JSON is the record's field's JSON.
//
// A log is packed against the record it is stored with and unpacked against that same record,
// so a log is always repacked whole when its record changes (routes.ts packs every write).
// Logs stored before packing have no `same` and read back as they are.
import type { ObservationRecord } from '../records.js';
import { asEventLog } from './event-log.js';
import type { EventLog, LoggedEvent } from './types.js';

/** Body field and the record's field with the same value; a field's bit is its place here (append only). */
const SAME_AS: ReadonlyArray<readonly [string, keyof ObservationRecord]> = [
  ['traceId', 'traceId'],
  ['name', 'name'],
  ['environment', 'environment'],
  ['startTime', 'startTime'],
  ['endTime', 'endTime'],
  ['completionStartTime', 'completionStartTime'],
  ['level', 'level'],
  ['statusMessage', 'statusMessage'],
  ['version', 'version'],
  ['parentObservationId', 'parentObservationId'],
  ['model', 'providedModelName'],
  ['modelParameters', 'modelParameters'],
  ['metadata', 'metadata'],
  ['usageDetails', 'providedUsageDetails'],
  ['costDetails', 'providedCostDetails'],
  ['type', 'type'],
  ['promptName', 'promptName'],
  ['promptVersion', 'promptVersion'],
];

const SAME_BIT = new Map(SAME_AS.map(([key], bit) => [key, bit]));

/** A kept event as stored: `same` has a bit for each body field left out, `timestamp` is absent when it is the start time. */
interface PackedEvent extends Omit<LoggedEvent, 'timestamp'> {
  timestamp?: string;
  same?: number;
}

const json = (value: unknown): string | undefined => JSON.stringify(value);

/**
 * The record's fields as JSON, each stringified once however many events are compared with it:
 * a long log is packed in time that grows with the log, not with the log times the record.
 */
function recordJson(record: ObservationRecord): (field: keyof ObservationRecord) => string | undefined {
  const texts = new Map<keyof ObservationRecord, string | undefined>();
  return (field) => {
    if (!texts.has(field)) texts.set(field, json(record[field]));
    return texts.get(field);
  };
}

/** Whether an event's value is the record's field's, keys in the same order (stringified only when both are objects). */
function sameJson(value: unknown, record: ObservationRecord, field: keyof ObservationRecord, fieldJson: (field: keyof ObservationRecord) => string | undefined): boolean {
  const other = record[field];
  if (value === other) return true;
  if (typeof value !== 'object' || typeof other !== 'object' || value === null || other === null) return false;
  return json(value) === fieldJson(field);
}

/** The log to store with `record` (null stays null). */
export function packObservationLog(log: EventLog | null, record: ObservationRecord): unknown {
  if (!log) return null;
  const fieldJson = recordJson(record);
  const events = log.events.map((event): PackedEvent => {
    const body: Record<string, unknown> = {};
    let same = 0;
    for (const key of Object.keys(event.body)) {
      const value = event.body[key];
      const bit = SAME_BIT.get(key);
      if (bit !== undefined && value !== undefined && sameJson(value, record, SAME_AS[bit]![1], fieldJson)) same |= 1 << bit;
      else body[key] = value;
    }
    const packed: PackedEvent = { type: event.type, body };
    if (event.timestamp !== record.startTime) packed.timestamp = event.timestamp;
    if (event.id !== undefined) packed.id = event.id;
    if (event.io) packed.io = event.io;
    if (same) packed.same = same;
    return packed;
  });
  return 'rawInput' in log ? { events, rawInput: log.rawInput } : { events };
}

/** The log stored with `record`, as ingestion merges it (null when there is none). */
export function unpackObservationLog(stored: unknown, record: ObservationRecord): EventLog | null {
  const log = asEventLog(stored);
  if (!log) return null;
  const fieldJson = recordJson(record);
  const events = (log.events as PackedEvent[]).map((packed): LoggedEvent => {
    const { same = 0, timestamp = record.startTime, ...rest } = packed;
    if (!same && packed.timestamp !== undefined) return packed as LoggedEvent;
    const body: Record<string, unknown> = { ...rest.body };
    SAME_AS.forEach(([key, field], bit) => {
      // A copy: the merge must not share objects with the stored record.
      if (same & (1 << bit)) body[key] = JSON.parse(fieldJson(field)!) as unknown;
    });
    return { ...rest, timestamp, body };
  });
  return { ...log, events };
}
