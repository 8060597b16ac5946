// JSON numbers that a double cannot hold, kept as their text. The service parses stored JSON
// (metadata values, inputs handed to the tokenizer) with parseJsonPrioritised, which since its
// issue #6628 keeps such a number as the exact digits of its source, a string, instead of
// rounding it (packages/shared/src/utils/json.ts, `parsePreservingPrecision`; the rule for
// "safe" is lossless-json's `isSafeNumber`). Node 20 gives a JSON.parse reviver no source text,
// so unsafe numbers are quoted in the text before it is parsed.

// Only text with a long run of digits or an exponent can hold a number a double rounds; other
// text parses as JSON.parse parses it (the service's own shortcut).
const MAYBE_UNSAFE = /[\d.]{13,}|\d[eE]/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The significant digits of a number's text: no sign, exponent, dot, leading or trailing zeros. */
function significantDigits(text: string): string {
  let start = text[0] === '-' ? 1 : 0;
  while (text[start] === '0' || text[start] === '.') start++;
  let end = text.lastIndexOf('e');
  if (end === -1) end = text.lastIndexOf('E');
  if (end === -1) end = text.length;
  while ((text[end - 1] === '0' || text[end - 1] === '.') && end > start) end--;
  return text.slice(start, end).replace('.', '');
}

/** Whether a JSON number's text reads as a double without losing digits (lossless-json's isSafeNumber). */
export function isSafeNumberText(text: string): boolean {
  const printed = String(Number.parseFloat(text));
  return text === printed || significantDigits(text) === significantDigits(printed);
}

/** JSON.parse, but a number a double would round comes back as its source text; throws as JSON.parse throws. */
export function parseJsonKeepingPrecision(text: string): unknown {
  const plain = JSON.parse(text) as unknown;
  if (!MAYBE_UNSAFE.test(text)) return plain;
  // The text is valid JSON here, so outside strings a '-' or a digit starts a number.
  let out = '';
  let copied = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to the next quote that no backslash escapes.
      for (i++; text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)![0];
      if (!isSafeNumberText(token)) {
        out += `${text.slice(copied, i)}"${token}"`;
        copied = i + token.length;
        quoted = true;
      }
      i += token.length - 1;
    }
  }
  return quoted ? JSON.parse(out + text.slice(copied)) : plain;
}
