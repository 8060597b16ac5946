// The lines `llmobs server` prints while a migration rewrites rows: one before, progress no more
// often than PROGRESS_EVERY_MS, one after.
import { describe, expect, it } from 'vitest';
import { migrationProgress, PROGRESS_EVERY_MS } from '../../../../src/commands/server/migration-progress.js';

describe('migrationProgress', () => {
  it('says what it does first, then progress at most every few seconds, then that it is over', () => {
    const lines: string[] = [];
    let now = 1_000_000;
    const progress = migrationProgress((line) => lines.push(line), () => now);
    progress.begin('moving 10,000 observations', 10_000);
    // Steps faster than the interval: one line per interval, whatever the number of steps.
    for (let done = 1000; done <= 10_000; done += 1000) {
      now += PROGRESS_EVERY_MS / 2;
      progress.advance(done);
    }
    now += 100;
    progress.end();
    expect(lines).toEqual([
      'Upgrading the data directory: moving 10,000 observations.',
      '  2,000 of 10,000 rows (20%)',
      '  4,000 of 10,000 rows (40%)',
      '  6,000 of 10,000 rows (60%)',
      '  8,000 of 10,000 rows (80%)',
      'Upgraded the data directory: 10,000 rows in 25 s.',
    ]);
  });

  it('prints no progress line for a rewrite shorter than the interval', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = migrationProgress((line) => lines.push(line), () => now);
    progress.begin('moving 2 rows', 2);
    now += 10;
    progress.advance(2);
    progress.end();
    expect(lines).toEqual(['Upgrading the data directory: moving 2 rows.', 'Upgraded the data directory: 2 rows in 0.0 s.']);
  });
});
