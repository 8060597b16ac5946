// SqliteSum against SQLite's own SUM over a REAL column: the same double for the same values in
// the same order, where a plain running sum differs in its last bits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../../../src/server/store/sqlite.js';
import { SqliteSum } from '../../../../src/server/store/sqlite-sum.js';

const db = openSqlite(undefined);
db.exec('CREATE TABLE v (x REAL)');
const insert = db.prepare('INSERT INTO v (x) VALUES (?)');
const sum = db.prepare('SELECT SUM(x) AS s FROM v');

function sqliteSum(values: readonly (number | null)[]): number | null {
  db.exec('DELETE FROM v');
  for (const value of values) insert.run([value]);
  return (sum.get() as { s: number | null }).s;
}

function ours(values: readonly (number | null)[]): number | null {
  const total = new SqliteSum();
  for (const value of values) total.add(value);
  return total.result();
}

/** Costs as they come: tenths, tiny prices times token counts, whole numbers, large ones, none. */
const cost = fc.oneof(
  fc.constantFrom(0.1, 0.2, 0.3, 1e-7, 3e-6, 0, 1, 2.5e-5, 1e10, null),
  fc.integer({ min: 0, max: 100_000 }).map((tokens) => tokens * 1.5e-7),
  fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 0, max: 1000 }),
);

describe('SqliteSum', () => {
  it('is null without values, as SUM is, and a sum of NULLs too', () => {
    expect(ours([])).toBe(sqliteSum([]));
    expect(ours([null, null])).toBe(sqliteSum([null, null]));
    expect(ours([])).toBeNull();
  });

  it('answers what SUM answers, to the bit', () => {
    fc.assert(
      fc.property(fc.array(cost, { maxLength: 300 }), (values) => {
        expect(Object.is(ours(values), sqliteSum(values))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('differs from a plain running sum where SUM does', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => [0.1, 0.2, 1e-7, 3e-6][i % 4]!);
    const plain = values.reduce((a, b) => a + b, 0);
    expect(sqliteSum(values)).not.toBe(plain);
    expect(ours(values)).toBe(sqliteSum(values));
  });

  it('keeps the sum alone once its error term overflows, as SUM does', () => {
    const values = [1.7e308, 1.7e308, 1];
    expect(ours(values)).toBe(sqliteSum(values));
    expect(ours(values)).toBe(Infinity);
  });
});
