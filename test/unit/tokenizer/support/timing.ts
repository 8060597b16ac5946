/** CPU time of `fn` in milliseconds: steadier than wall time on a busy machine. */
export function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * How much longer `run(large)` takes than `run(small)`, from the best of a few runs each (after a
 * warm-up), so that a pause elsewhere on the machine does not decide the result.
 */
export function growth(run: (size: number) => void, small: number, large: number): number {
  run(small);
  const best = (size: number, times: number): number => Math.min(...Array.from({ length: times }, () => cpuMs(() => run(size))));
  return best(large, 2) / Math.max(best(small, 3), 0.5);
}
