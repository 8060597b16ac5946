// The ids a listing remembers, to drop an item that an earlier page already had.

/**
 * How many ids of the newest items a listing remembers to drop repeats, in each of two
 * generations: the last REPEAT_WINDOW to twice that many. Langfuse pages strictly after the
 * cursor's (start time, trace, id) tuple, so a repeat (a row not yet merged, or a server whose
 * pages overlap) comes close to the first: a window finds it, and memory stays flat however long
 * the export.
 */
export const REPEAT_WINDOW = 100_000;

/** The ids of the items seen last (see REPEAT_WINDOW). */
export class RecentIds {
  private current = new Set<string>();
  private previous = new Set<string>();

  /** Whether `id` was seen; remembers it when not. */
  seen(id: string): boolean {
    if (this.current.has(id) || this.previous.has(id)) return true;
    if (this.current.size >= REPEAT_WINDOW) {
      this.previous = this.current;
      this.current = new Set();
    }
    this.current.add(id);
    return false;
  }
}
