// The order processEventBatch puts a request's events in: every other event by timestamp, then
// the update events by timestamp, at millisecond precision. (The order in which the events of one
// id are merged is event-log.ts's byTime.)

const UPDATES = new Set(['generation-update', 'span-update', 'observation-update']);

export function sortBatch<T extends { type: string; timestamp: string }>(events: readonly T[]): T[] {
  const keyed = events.map((event) => ({ event, at: Date.parse(event.timestamp) }));
  const byAt = (a: { at: number }, b: { at: number }) => a.at - b.at;
  const others = keyed.filter((k) => !UPDATES.has(k.event.type)).sort(byAt);
  const updates = keyed.filter((k) => UPDATES.has(k.event.type)).sort(byAt);
  return [...others, ...updates].map((k) => k.event);
}
