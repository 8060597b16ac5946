// Made on first use: a regex with a Unicode property costs a compile of its class when created,
// and most texts are well formed, which Node 20 checks natively.
let loneSurrogate: RegExp | undefined;

// ES2024; Node 20 has it, the declared library does not.
const native = String.prototype as unknown as { isWellFormed?: (this: string) => boolean };

/**
 * The reference receives JavaScript strings as UTF-8, which has no lone surrogates: the
 * conversion replaces each with U+FFFD.
 */
export function wellFormed(text: string): string {
  const ok = native.isWellFormed ? native.isWellFormed.call(text) : !(loneSurrogate ??= /\p{Cs}/u).test(text);
  return ok ? text : text.replace(/\p{Cs}/gu, '\ufffd');
}
