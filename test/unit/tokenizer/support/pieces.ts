/**
 * Piece boundaries as the reference engine draws them.
 *
 * WASM `tiktoken` only returns token ids, but a tokenizer built with a custom vocabulary shows its
 * pieces: with every single byte plus each expected piece as a token, a piece that is exactly an
 * expected one comes back as that one token (tiktoken looks a whole piece up before merging), and
 * any other split comes back as something else. Many texts go through one encoder, separated by a
 * special token, which the reference also treats as the end of each text.
 */
import { Tiktoken } from 'tiktoken/lite';
import { makeScanner } from '../../../../src/tokenizer/scanner.js';
import { SOURCE_PATTERNS, type PatternFamily } from '../../../../src/tokenizer/patterns.js';
import { wellFormed } from '../../../../src/tokenizer/well-formed.js';

const SEPARATOR = '\u{10fffd}|sep|';

export function ourPieces(family: PatternFamily, text: string): string[] {
  const scan = makeScanner(family);
  const pieces: string[] = [];
  for (let p = 0; p < text.length; ) {
    const e = scan(text, p, text.length);
    if (e <= p) throw new Error(`scanner made no progress at ${p}`);
    pieces.push(text.slice(p, e));
    p = e;
  }
  return pieces;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

export interface PieceMismatch {
  readonly text: string;
  readonly ours: string[];
  /** The reference's tokens, as hex of their bytes (whole pieces where the splits agree). */
  readonly reference: string[];
}

/** Texts (well-formed, without the separator) whose pieces differ between us and the reference. */
export function pieceMismatches(
  family: PatternFamily,
  texts: readonly string[],
  split: (family: PatternFamily, text: string) => string[] = ourPieces,
): PieceMismatch[] {
  const expected = texts.map((t) => split(family, wellFormed(t)));
  const vocabulary = new Map<string, number>();
  const encoded: string[] = [];
  for (let b = 0; b < 256; b++) {
    vocabulary.set(hex(Uint8Array.of(b)), b);
    encoded.push(Buffer.from([b]).toString('base64'));
  }
  for (const pieces of expected) {
    for (const piece of pieces) {
      const bytes = Buffer.from(piece, 'utf8');
      const key = hex(bytes);
      if (!vocabulary.has(key)) {
        vocabulary.set(key, encoded.length);
        encoded.push(bytes.toString('base64'));
      }
    }
  }
  const separatorId = encoded.length;
  const byId = [...vocabulary.keys()];
  const enc = new Tiktoken(`! 0 ${encoded.join(' ')}`, { [SEPARATOR]: separatorId }, SOURCE_PATTERNS[family]);
  let ids: Uint32Array;
  try {
    ids = enc.encode(texts.map(wellFormed).join(SEPARATOR), 'all');
  } finally {
    enc.free();
  }
  const segments: string[][] = [[]];
  for (const id of ids) {
    if (id === separatorId) segments.push([]);
    else segments[segments.length - 1]!.push(byId[id]!);
  }
  if (segments.length !== texts.length) throw new Error('reference pieces: separator count mismatch');
  const out: PieceMismatch[] = [];
  texts.forEach((text, i) => {
    const ours = expected[i]!;
    const reference = segments[i]!;
    if (ours.map((p) => hex(Buffer.from(p, 'utf8'))).join(',') !== reference.join(',')) out.push({ text, ours, reference });
  });
  return out;
}
