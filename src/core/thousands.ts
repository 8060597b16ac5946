// Whole numbers thousands separated, as toLocaleString('en-US') prints them, without it: its first
// use loads ICU's number formats, a large part of a short command's run.

/** A string of digits with a comma before each group of three from the right: 1234567 as 1,234,567. */
export function groupThousands(digits: string): string {
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/**
 * `n.toLocaleString('en-US')` for a safe integer, written here; anything else (a fraction, -0,
 * a huge or non-finite number) is left to toLocaleString.
 */
export function formatInteger(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  return n < 0 ? `-${groupThousands(String(-n))}` : groupThousands(String(n));
}
