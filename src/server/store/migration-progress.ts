// What a migration that rewrites rows says while it runs: such a step can take minutes on a large
// store, and a server that prints nothing meanwhile looks hung. The store only reports; the
// server's caller decides what to print, and how often.

export interface MigrationProgress {
  /** A rewrite of `total` rows starts; `what` says what it does, in a sentence that starts lower case. */
  begin(what: string, total: number): void;
  /** `done` of the rows are rewritten so far. */
  advance(done: number): void;
  /** The rewrite is over. */
  end(): void;
}
