// SQLite's SUM() of REAL values, in JavaScript: a sum read in slices (trace-stats.ts) gives the
// double one SUM over the same rows in the same order gives, to the last bit. Since 3.43 SQLite
// adds REALs with Kahan-Babuska-Neumaier compensation (sumStep and kahanBabuskaNeumaierStep in
// src/func.c) and returns the running sum plus its error term; a column of REAL affinity reads
// every number as a REAL, so the integer branch of sumStep is never taken here.

export class SqliteSum {
  private sum = 0;
  private error = 0;
  /** Values added (NULLs are not): SUM of none is NULL. */
  private count = 0;

  add(value: number | null): void {
    if (value === null) return;
    this.count++;
    const s = this.sum;
    const t = s + value;
    if (Math.abs(s) > Math.abs(value)) this.error += s - t + value;
    else this.error += value - t + s;
    this.sum = t;
  }

  /** What SUM() answers: null without values; the error term is left out once it overflowed. */
  result(): number | null {
    if (this.count === 0) return null;
    return Number.isFinite(this.error) ? this.sum + this.error : this.sum;
  }
}
