// What `llmobs server` prints on stderr while a migration rewrites the data directory's rows: a
// line before it starts (what it does, how many rows, that a stop is safe), a line of progress at
// most every few seconds, and one when it is over. stdout stays the start line alone (--json).
import { formatInteger } from '../../core/thousands.js';
import type { MigrationProgress } from '../../server/store/migration-progress.js';

/** Least time between two progress lines. */
export const PROGRESS_EVERY_MS = 5000;

/** A MigrationProgress that prints through `say`; `clock` gives milliseconds. */
export function migrationProgress(say: (line: string) => void, clock: () => number = Date.now, every = PROGRESS_EVERY_MS): MigrationProgress {
  let started = 0;
  let said = 0;
  let total = 0;
  return {
    begin(what, rows) {
      started = said = clock();
      total = rows;
      say(`Upgrading the data directory: ${what}.`);
    },
    advance(done) {
      const now = clock();
      if (now - said < every || done >= total) return;
      said = now;
      say(`  ${formatInteger(done)} of ${formatInteger(total)} rows (${Math.floor((done / total) * 100)}%)`);
    },
    end() {
      const seconds = (clock() - started) / 1000;
      say(`Upgraded the data directory: ${formatInteger(total)} rows in ${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s.`);
    },
  };
}
