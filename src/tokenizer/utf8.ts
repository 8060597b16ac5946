/**
 * UTF-8 of `text[start..end)` into `bytes` from `at`; returns the position after the last byte.
 * `bytes` needs room for 3 bytes per UTF-16 unit. The text must be well formed (no lone
 * surrogates, see well-formed.ts), and `end` must not split a surrogate pair.
 */
export function encodeUtf8(text: string, start: number, end: number, bytes: Uint8Array, at: number): number {
  let n = at;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      bytes[n++] = c;
    } else if (c < 0x800) {
      bytes[n++] = 0xc0 | (c >> 6);
      bytes[n++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c < 0xdc00 && i + 1 < end) {
      c = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
      bytes[n++] = 0xf0 | (c >> 18);
      bytes[n++] = 0x80 | ((c >> 12) & 0x3f);
      bytes[n++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[n++] = 0x80 | (c & 0x3f);
    } else {
      bytes[n++] = 0xe0 | (c >> 12);
      bytes[n++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[n++] = 0x80 | (c & 0x3f);
    }
  }
  return n;
}
