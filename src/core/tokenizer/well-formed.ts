const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/**
 * The reference receives JavaScript strings as UTF-8, which has no lone surrogates: the
 * conversion replaces each with U+FFFD.
 */
export function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATES, '\ufffd') : text;
}
