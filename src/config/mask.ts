/** Shows enough of a key to recognise it, never enough to use it: `sk-lf-…9f3a`. */
export function maskKey(key: string | undefined): string {
  if (!key) return '';
  const prefix = /^(pk|sk)-lf-/.exec(key)?.[0];
  if (prefix && key.length >= prefix.length + 8) return `${prefix}…${key.slice(-4)}`;
  if (key.length >= 12) return `${key.slice(0, 2)}…${key.slice(-4)}`;
  return '…';
}
