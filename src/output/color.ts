// Colour decisions, kept apart from printing so they can be tested alone.
// Order: --no-color, then FORCE_COLOR (as Node itself does), then NO_COLOR, then the terminal.

export type ColorLevel = 0 | 1 | 2 | 3;

export interface ColorInputs {
  env: Record<string, string | undefined>;
  isTTY: boolean;
  noColorFlag: boolean;
}

export function colorLevel({ env, isTTY, noColorFlag }: ColorInputs): ColorLevel {
  if (noColorFlag) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    if (force === '2') return 2;
    if (force === '3') return 3;
    return 1;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (!isTTY) return 0;
  if (env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (/-256(color)?$/i.test(env.TERM ?? '')) return 2;
  return 1;
}
