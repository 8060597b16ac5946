// How numbers and times read on the page.

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** Seconds, as the service shows latency. */
export function formatLatency(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || seconds < 0) return '';
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(2)} s`;
}

/** A cost in USD with enough digits to tell small ones apart. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || usd < 0) return '';
  if (usd === 0) return '$0';
  return usd >= 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toPrecision(3)}`;
}

export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '' : n.toLocaleString('en-US');
}

/** A price per unit shown per unit, per 1K or per 1M units. */
export function formatPrice(price: number | null | undefined, scale: number): string {
  if (price === null || price === undefined) return '';
  const value = price * scale;
  return `$${Number(value.toPrecision(6))}`;
}
