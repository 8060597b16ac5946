// How much of a long answer one slice reads (json-stream.ts): the rows whose stored text fits in
// SLICE_BYTES. Everyday rows are small, so a slice mostly takes all it may; the sizes one by one
// are read only when the rows together are too large.
import type { RowSizes, Tx } from '../store/index.js';

/** Stored text one slice reads at most; a row larger than this is a slice of its own. */
export const SLICE_BYTES = 4 * 1024 * 1024;

/**
 * How many of the next rows a slice reads (at most `want`, at least one when there is one), and
 * how many `sizes` found (it may look at one more than `want`: whether more follow).
 */
export function rowsToRead(sizes: RowSizes, want: number): { take: number; found: number } {
  const whole = sizes.total();
  if (whole.bytes <= SLICE_BYTES) return { take: Math.min(want, whole.count), found: whole.count };
  const each = sizes.each();
  let take = 0;
  for (let bytes = 0; take < Math.min(want, each.length); take++) {
    if (take > 0 && bytes + each[take]! > SLICE_BYTES) break;
    bytes += each[take]!;
  }
  return { take, found: each.length };
}

/**
 * Rows given by id (a page's ids read first), in slices: each `next` reads as many of the next
 * ids' rows as fit (`rowsToRead` over their sizes), until `done`. An id whose row is gone
 * meanwhile gives none.
 */
export function slicesOfIds<T>(ids: readonly string[], sizes: (tx: Tx, ids: readonly string[]) => RowSizes, rows: (tx: Tx, ids: readonly string[]) => T[]): { next: (tx: Tx) => T[] | undefined; done: () => boolean } {
  let at = 0;
  const done = () => at >= ids.length;
  const next = (tx: Tx) => {
    if (done()) return undefined;
    const { take } = rowsToRead(sizes(tx, ids.slice(at)), ids.length - at);
    return rows(tx, ids.slice(at, (at += take)));
  };
  return { next, done };
}
