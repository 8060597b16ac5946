// How amounts read for people: dollars, token counts, shares and durations. Every command that
// shows money uses the one dollar formatter below, in the style that suits what it shows.

/**
 * Every dollar amount llmobs prints goes through `formatUsd`, so they all read alike: `$` after the
 * sign (-$3.20), thousands separated ($1,234.50), at least two decimals ($0.50, $10.00), zero and
 * amounts that round to zero as $0.00, `-` for a missing or non-finite amount. The styles differ
 * only in how many decimals they keep:
 * - `exact`: what the server stores, up to 12 decimals ($0.000123). For one estimate and its
 *   explanation, where every stored digit counts.
 * - `price`: up to 10 significant digits, so no float noise (2.4999999999999996 per million reads
 *   $2.50). For prices of model definitions.
 * - `report`: cents from a dollar up, 4 decimals below a dollar ($0.0457), 4 significant digits
 *   below a cent ($0.000001235). For reports that add many generations up.
 */
export type UsdStyle = 'exact' | 'price' | 'report';

import { formatInteger, groupThousands } from '../core/thousands.js';

export { formatInteger } from '../core/thousands.js';

// At most 20 decimals (what Intl.NumberFormat takes on Node 20).
const MAX_DECIMALS = 20;

/**
 * `value` (finite, not negative) with at most `decimals` decimals and at least min(2, decimals),
 * thousands separated: what Intl.NumberFormat('en-US', { minimumFractionDigits,
 * maximumFractionDigits }) prints, without it (its first use loads ICU's number formats, at
 * every start of a command that shows a price). Like ICU, it rounds the shortest
 * decimal representation of the number (1.005 to two decimals is 1.01), half away from zero.
 */
export function formatDecimal(value: number, decimals: number): string {
  const [mantissa = '0', exponent] = String(value).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  let digits = whole + fraction;
  let point = whole.length + (exponent ? Number(exponent) : 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  let kept = digits.slice(0, point + decimals);
  if (digits.length > point + decimals && digits.charCodeAt(point + decimals) >= 53 /* '5' */) {
    // Add one in the last kept place, carrying to the left.
    const chars = kept.split('');
    let i = chars.length - 1;
    while (i >= 0 && chars[i] === '9') chars[i--] = '0';
    if (i >= 0) chars[i] = String(Number(chars[i]) + 1);
    else {
      chars.unshift('1');
      point++;
    }
    kept = chars.join('');
  }
  // Digits only, from here on: loops instead of regexes, whose first uses compile them at every
  // start of a command that prints an amount.
  let first = 0;
  while (first < point - 1 && kept.charCodeAt(first) === 48 /* '0' */) first++;
  const integer = point > 0 ? kept.slice(first, point) : '0';
  let end = kept.length;
  while (end > point && kept.charCodeAt(end - 1) === 48) end--;
  let decimalsText = kept.slice(point, end);
  const least = Math.min(2, decimals);
  if (decimalsText.length < least) decimalsText = decimalsText.padEnd(least, '0');
  const groups = groupThousands(integer);
  return decimalsText ? `${groups}.${decimalsText}` : groups;
}


/** Decimals of a number's shortest representation (1.5e-7 has 8). */
function decimalsOf(value: number): number {
  const [mantissa = '', exponent] = String(value).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return exponent ? Math.max(0, fraction - Number(exponent)) : fraction;
}

function digits(abs: number, style: UsdStyle): string {
  switch (style) {
    case 'exact':
      return formatDecimal(abs, 12);
    case 'price': {
      const clean = Number(abs.toPrecision(10));
      return formatDecimal(clean, Math.min(MAX_DECIMALS, Math.max(2, decimalsOf(clean))));
    }
    case 'report':
      if (abs >= 1) return formatDecimal(abs, 2);
      if (abs >= 0.01) return formatDecimal(abs, 4);
      return formatDecimal(abs, Math.min(MAX_DECIMALS, Math.max(4, 3 - Math.floor(Math.log10(abs)))));
  }
}

/** Dollars in the given style (see `UsdStyle`); `-` for a missing or non-finite amount. */
export function formatUsd(value: number | null | undefined, style: UsdStyle): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  const text = digits(Math.abs(value), style);
  if (roundsToZero(text)) return '$0.00';
  return `${value < 0 ? '-' : ''}$${text}`;
}

/** Whether formatted digits are all zeros (with their separators). */
function roundsToZero(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 48 && c !== 46 && c !== 44) return false;
  }
  return true;
}

/** Dollars in a report (see `formatUsd`, style `report`). */
export function formatCost(value: number): string {
  return formatUsd(value, 'report');
}

export function formatTokens(value: number): string {
  return formatInteger(Math.round(value));
}


export function formatShare(share: number): string {
  if (!Number.isFinite(share)) return '';
  const pct = share * 100;
  return pct > 0 && pct < 0.1 ? '<0.1%' : `${pct.toFixed(1)}%`;
}

export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(2)} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${Math.round(seconds - m * 60)} s`;
}

/** A count with its noun, thousands separated, singular for one: "1 observation", "3,002 observations". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatInteger(n)} ${n === 1 ? singular : plural}`;
}
