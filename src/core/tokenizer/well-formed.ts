const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

// ES2024; Node 20 has it, the declared library does not.
const native = String.prototype as unknown as { isWellFormed?: (this: string) => boolean };

/**
 * The reference receives JavaScript strings as UTF-8, which has no lone surrogates: the
 * conversion replaces each with U+FFFD.
 */
export function wellFormed(text: string): string {
  const ok = native.isWellFormed ? native.isWellFormed.call(text) : !LONE_SURROGATE.test(text);
  return ok ? text : text.replace(LONE_SURROGATES, '\ufffd');
}
