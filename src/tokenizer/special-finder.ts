/**
 * Finds the special tokens of a text from left to right, as the reference's alternation of them
 * does (no special token contains another, so at most one starts at any index). Searches with
 * `indexOf`, which needs no regex compiled, and remembers where each name occurs next, so that a
 * text is searched once per name whatever the number of matches.
 */
export class SpecialFinder {
  private text = '';
  private readonly next: number[];
  /** The special token found by the last `find`. */
  name = '';

  constructor(private readonly names: readonly string[]) {
    this.next = names.map(() => -2);
  }

  reset(text: string): void {
    this.text = text;
    // -2: not searched yet.
    this.next.fill(-2);
  }

  /** Index of the first special token at or after `from`, which `name` then holds; -1 if none. */
  find(from: number): number {
    const names = this.names;
    const next = this.next;
    let at = -1;
    for (let j = 0; j < names.length; j++) {
      let p = next[j]!;
      if (p === -1) continue;
      if (p < from) p = next[j] = this.text.indexOf(names[j]!, from);
      if (p >= 0 && (at < 0 || p < at)) {
        at = p;
        this.name = names[j]!;
      }
    }
    return at;
  }
}
