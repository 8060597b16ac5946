// JSON written straight into one growing UTF-8 buffer. Batch results are mostly ASCII keys and
// numbers: writing their bytes directly, instead of building a string per value and encoding
// it, is what keeps `estimate --batch` fast. Every method writes exactly what JSON.stringify
// would write for the same value.

const QUOTE = 0x22;
const COMMA = 0x2c;
const ZERO = 0x30;
const DOT = 0x2e;
const OPEN = 0x7b;
const CLOSE = 0x7d;

const NULL = Buffer.from('null');

export class JsonBytes {
  private buffer: Buffer;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(capacity, 64));
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** Any text, encoded as UTF-8. */
  text(text: string): void {
    // A UTF-16 unit never takes more than 3 UTF-8 bytes.
    this.reserve(text.length * 3);
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  /** Bytes already encoded (constant pieces, remembered prefixes). */
  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  null(): void {
    this.raw(NULL);
  }

  comma(): void {
    this.byte(COMMA);
  }

  byte(code: number): void {
    this.reserve(1);
    this.buffer[this.length++] = code;
  }

  /** A JSON string. Printable ASCII without quotes or backslashes is copied as it is. */
  string(value: string): void {
    const n = value.length;
    if (n > 256) return this.text(JSON.stringify(value));
    this.reserve(n + 2);
    const buffer = this.buffer;
    const start = this.length;
    let at = start;
    buffer[at++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === QUOTE || c === 0x5c) {
        this.length = start;
        return this.text(JSON.stringify(value));
      }
      buffer[at++] = c;
    }
    buffer[at++] = QUOTE;
    this.length = at;
  }

  /** A number as JSON.stringify writes it (non-finite numbers as null). */
  number(value: number): void {
    if (value >= 0 && value <= Number.MAX_SAFE_INTEGER && Number.isInteger(value)) return this.integer(value);
    if (value >= 1e-6 && value < 1000) {
      // A double that is the nearest one to k × 10^-12 with k below 10^15 (at most 15 digits)
      // prints as exactly that decimal: any decimal of up to 15 digits survives a round trip,
      // so no shorter one maps to the same double. From 1e-6 up JS writes it in plain notation.
      const k = Math.round(value * 1e12);
      if (k < 1e15 && k / 1e12 === value) return this.decimal12(k);
    }
    if (!Number.isFinite(value)) return this.raw(NULL);
    this.text(String(value));
  }

  /** `{"key":number,...}` for a record of numbers, with each key's bytes remembered. */
  numberMap(map: Record<string, number>): void {
    this.byte(OPEN);
    let first = true;
    for (const key in map) {
      if (!first) this.byte(COMMA);
      first = false;
      this.raw(keyBytes(key));
      this.number(map[key]!);
    }
    this.byte(CLOSE);
  }

  /** A non-negative safe integer. */
  private integer(value: number): void {
    let digits = 1;
    for (let bound = 10; bound <= value && digits < 16; bound *= 10) digits++;
    this.reserve(digits);
    const buffer = this.buffer;
    let at = this.length + digits;
    this.length = at;
    let rest = value;
    do {
      const next = Math.floor(rest / 10);
      buffer[--at] = ZERO + (rest - next * 10);
      rest = next;
    } while (rest > 0);
  }

  /** k × 10^-12 in plain notation, without trailing zeros in the fraction. */
  private decimal12(k: number): void {
    const whole = Math.floor(k / 1e12);
    const fraction = k - whole * 1e12;
    this.integer(whole);
    if (fraction === 0) return;
    // Twelve fractional digits as two six-digit halves: small integers, cheap to divide.
    const high = Math.floor(fraction / 1e6);
    const low = fraction - high * 1e6;
    this.reserve(13);
    this.buffer[this.length++] = DOT;
    if (low === 0) return this.fractionDigits(high, 6);
    this.fixedDigits(high, 6);
    this.fractionDigits(low, 6);
  }

  /** `value` as exactly `width` digits, zero-padded. */
  private fixedDigits(value: number, width: number): void {
    const buffer = this.buffer;
    let at = this.length + width;
    this.length = at;
    let rest = value | 0;
    for (let i = 0; i < width; i++) {
      const next = (rest / 10) | 0;
      buffer[--at] = ZERO + rest - next * 10;
      rest = next;
    }
  }

  /** `value` (not 0) as `width` zero-padded digits with its trailing zeros left out. */
  private fractionDigits(value: number, width: number): void {
    let rest = value | 0;
    while (rest % 10 === 0) {
      rest = (rest / 10) | 0;
      width--;
    }
    this.fixedDigits(rest, width);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + extra));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

// `"key":` as bytes, for the few usage and cost keys that repeat on every line.
const keys = new Map<string, Buffer>();

function keyBytes(key: string): Buffer {
  let bytes = keys.get(key);
  if (bytes === undefined) {
    bytes = Buffer.from(`${JSON.stringify(key)}:`);
    if (keys.size < 10_000) keys.set(key, bytes);
  }
  return bytes;
}
