// The two orders the server puts events in. Both compare timestamps at millisecond precision.

const ms = (timestamp: string): number => new Date(timestamp).getTime();

const UPDATES = new Set(['generation-update', 'span-update', 'observation-update']);

/** processEventBatch: every other event by timestamp, then the update events by timestamp. */
export function sortBatch<T extends { type: string; timestamp: string }>(events: readonly T[]): T[] {
  const others = events.filter((e) => !UPDATES.has(e.type)).sort((a, b) => ms(a.timestamp) - ms(b.timestamp));
  const updates = events.filter((e) => UPDATES.has(e.type)).sort((a, b) => ms(a.timestamp) - ms(b.timestamp));
  return [...others, ...updates];
}

/**
 * The worker's merge order for the events of one id: by timestamp, and on equal timestamps a
 * create event before the other. The comparison is the server's own (it looks at the first
 * event only, so equal-time creates come out in the order Array.prototype.sort gives them).
 */
export function byTime<T extends { type: string; timestamp: string }>(events: readonly T[]): T[] {
  return events.slice().sort((a, b) => {
    const at = ms(a.timestamp);
    const bt = ms(b.timestamp);
    if (at === bt) return a.type.includes('create') ? -1 : 1;
    return at - bt;
  });
}
