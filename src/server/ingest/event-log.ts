// The events of a trace, observation or score id, kept with its record so that each request merges
// every event the id ever had, in time order, as the Langfuse worker does (it lists all the event
// files of the id and re-merges them on top of the stored row). An event that arrives late with
// an older timestamp therefore lands where its timestamp puts it instead of overriding newer ones.
//
// A kept event leaves out its input and output: only whether they were truthy is kept, and the
// winner's value is the record's own (see EventLog.rawInput). That keeps the log small, as the
// input and output are most of an event's size.
import type { EventLog, LoggedEvent } from './types.js';

/** Stands for "the input (or output) stored with the record" in a kept event. */
export const STORED = Symbol('stored with the record');

interface AnyEvent {
  type: string;
  timestamp: string;
  body: object;
}

/** One event in a merge: the event, and the input and output it carried. */
export interface MergeItem<E extends AnyEvent> {
  event: E;
  input: unknown;
  output: unknown;
}

const IO_INPUT = 1;
const IO_OUTPUT = 2;

/** The kept events of a log as merge items (their body gets the record's id back). */
export function loggedItems<E extends AnyEvent>(log: EventLog | null | undefined, id: string): MergeItem<E>[] {
  if (!log) return [];
  return log.events.map((logged) => ({
    event: { type: logged.type, timestamp: logged.timestamp, body: { ...logged.body, id } } as unknown as E,
    input: (logged.io ?? 0) & IO_INPUT ? STORED : undefined,
    output: (logged.io ?? 0) & IO_OUTPUT ? STORED : undefined,
  }));
}

/** Events of this request as merge items. */
export function freshItems<E extends AnyEvent>(events: readonly E[]): MergeItem<E>[] {
  return events.map((event) => {
    const body = event.body as { input?: unknown; output?: unknown };
    return { event, input: body.input, output: body.output };
  });
}

/** An event as it is kept: its id, and its body without the record's id, input and output. */
export function toLogged(event: AnyEvent & { id?: string }): LoggedEvent {
  const { id: _id, input, output, ...body } = event.body as Record<string, unknown>;
  const io = (input ? IO_INPUT : 0) | (output ? IO_OUTPUT : 0);
  const logged: LoggedEvent = { type: event.type, timestamp: event.timestamp, body };
  if (event.id !== undefined) logged.id = event.id;
  if (io) logged.io = io;
  return logged;
}

/** The ids of the events a log holds (those kept with their id). */
export function loggedIds(log: EventLog | null | undefined): string[] {
  const ids: string[] = [];
  for (const event of log?.events ?? []) if (event.id !== undefined) ids.push(event.id);
  return ids;
}

/** A log read back from the store, or null when it is not one (records stored without events). */
export function asEventLog(value: unknown): EventLog | null {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { events?: unknown }).events)) return null;
  return value as EventLog;
}

/**
 * The worker's merge order for the events of one id: by timestamp (milliseconds), a create event
 * before the others at the same time. Events that still tie keep the order they arrived in; the
 * service's own order for those depends on how its event files are listed.
 */
export function byTime<T extends { event: { type: string; timestamp: string } }>(items: readonly T[]): T[] {
  const keyed = items.map((item, index) => ({ item, index, at: Date.parse(item.event.timestamp), create: item.event.type.includes('create') }));
  keyed.sort((a, b) => a.at - b.at || (a.create === b.create ? a.index - b.index : a.create ? -1 : 1));
  return keyed.map((k) => k.item);
}

/**
 * The last truthy input (or output) over items in merge order: `kept` when that is a kept event's
 * (the value stored with the record), `fallback` (the stored record's) when no event has one.
 */
export function lastTruthy(items: readonly MergeItem<AnyEvent>[], field: 'input' | 'output', kept: unknown, fallback: unknown): unknown {
  for (let i = items.length - 1; i >= 0; i--) {
    const value = items[i]![field];
    if (value === STORED) return kept ?? null;
    if (value) return value;
  }
  return fallback ?? null;
}

