// The cost chart's y axis: round ticks from 0 to at least the highest bar (steps of 1, 2 or 5
// times a power of ten), labelled in dollars with as many decimals as the step needs.

export interface Axis {
  /** The top of the axis: the last tick. */
  top: number;
  ticks: number[];
  step: number;
}

/** About `count` ticks from 0 up to the first at or above `highest`. */
export function costAxis(highest: number, count = 4): Axis {
  if (!(highest > 0) || !Number.isFinite(highest)) return { top: 1, ticks: [0, 1], step: 1 };
  const rough = highest / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough * (1 - 1e-9))!;
  const steps = Math.max(1, Math.ceil(highest / step - 1e-9));
  const ticks = Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { top: ticks[ticks.length - 1]!, ticks, step };
}

/** A tick's label: dollars, with cents at least and the decimals that tell the ticks apart. */
export function tickLabel(value: number, step: number): string {
  const decimals = Math.min(12, Math.max(2, -Math.floor(Math.log10(step) + 1e-9)));
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
}
