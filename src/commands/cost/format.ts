// How amounts read in reports: dollars with cents from a dollar up (thousands separated), four
// significant digits below (a generation costs fractions of a cent), tokens with separators.

export function formatCost(value: number): string {
  if (!Number.isFinite(value)) return '-';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs === 0) return '$0.00';
  if (abs >= 1) return `${sign}$${abs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (abs >= 0.01) return `${sign}$${abs.toFixed(4).replace(/0{1,2}$/, '')}`;
  return `${sign}$${Number(abs.toPrecision(4)).toFixed(Math.min(20, Math.max(4, 3 - Math.floor(Math.log10(abs)))))}`.replace(/(\.\d*?[1-9])0+$/, '$1');
}

export function formatTokens(value: number): string {
  return Math.round(value).toLocaleString('en-US');
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
