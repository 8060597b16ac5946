import { BytePairMerger } from './bpe.js';
import { ENCODINGS, type EncodingName } from './encodings.js';
import { LongPieceMerger, WINDOW_BYTES } from './long-piece.js';
import { familyOfPattern, type PatternFamily } from './patterns.js';
import type { RankTable } from './rank-table.js';
import { classTable, makeScanner, type Scanner } from './scanner.js';
import { SpecialFinder } from './special-finder.js';
import { type CountingCore, createStreamingCounter, type StreamingCounter } from './streaming.js';
import { encodeUtf8 } from './utf8.js';
import { wellFormed } from './well-formed.js';

/**
 * What a count saw besides the number of tokens, among the pieces longer than 16 UTF-16 units,
 * added to what earlier calls given the same object saw.
 */
export interface CountStats {
  /** UTF-8 bytes of the longest piece (0 if there is none). */
  longestPiece: number;
  /** The sum of each piece's UTF-8 length squared: merging a piece takes time quadratic in it. */
  pieceWork: number;
}

export interface Tokenizer {
  readonly name: EncodingName;
  /** Number of tokens, as `encode(text).length` but faster. */
  count(text: string, stats?: CountStats): number;
  /** Token ids, as the reference's `encode(text, "all")`: every special token string is that token. */
  encode(text: string): number[];
  /** A counter fed in chunks; its total equals `count` of the concatenated chunks. */
  counter(): StreamingCounter;
}

export interface TokenizerOptions {
  /**
   * Multi-token pieces whose counts are kept, per cache generation (two generations are kept;
   * pieces are at most 48 UTF-16 units, so the default bounds the cache to about 10 MB). 0
   * disables the cache.
   */
  readonly cacheSize?: number;
  /**
   * UTF-8 bytes of a long piece merged at once (see long-piece.ts); pieces that may be longer
   * go through such a window. Small values are for tests.
   */
  readonly window?: number;
}

/** Pieces longer than this are not cached: they rarely repeat and would pin memory. */
const MAX_CACHED_PIECE = 48;

// ignoreBOM keeps a leading U+FEFF, which is part of the piece.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Texts are checked for being ASCII, which the class table covers from the start, until this
 * many characters have been checked; then, or at the first other character, the rest of the
 * table is filled in.
 */
const ASCII_CHECK_BUDGET = 1 << 16;

const HOT_BITS = 13;
const HOT_WIDTH = 16;
/**
 * Pieces counted before the hot-piece table is made: a short text ("hello") does not need its
 * 300 KB, a long one soon repeats its words.
 */
const PIECES_BEFORE_HOT = 64;

/**
 * The counts of the most recent short pieces, by a hash of their UTF-16 units, stored inline in
 * typed arrays (direct-mapped: a new piece replaces the one in its slot). Small enough to stay in
 * the processor cache, unlike the rank table and the piece map, so the common words of a text
 * cost a hash and a comparison.
 */
class HotPieces {
  private readonly units = new Uint16Array((1 << HOT_BITS) * HOT_WIDTH);
  private readonly lengths = new Uint8Array(1 << HOT_BITS);
  private readonly counts = new Int32Array(1 << HOT_BITS);
  private slot = 0;

  /** The count of text[start..end) (at most HOT_WIDTH units), or -1; remembers the slot for `set`. */
  get(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    const slot = (h >>> (32 - HOT_BITS)) ^ (h & ((1 << HOT_BITS) - 1));
    this.slot = slot;
    const len = end - start;
    if (this.lengths[slot] !== len) return -1;
    const units = this.units;
    for (let i = 0, at = slot * HOT_WIDTH; i < len; i++, at++) {
      if (units[at] !== text.charCodeAt(start + i)) return -1;
    }
    return this.counts[slot]!;
  }

  /** Stores the count of the piece last passed to `get`. */
  set(text: string, start: number, end: number, count: number): void {
    const slot = this.slot;
    for (let i = start, at = slot * HOT_WIDTH; i < end; i++, at++) this.units[at] = text.charCodeAt(i);
    this.lengths[slot] = end - start;
    this.counts[slot] = count;
  }
}

/**
 * Counts of recently seen pieces. Two generations approximate an LRU without bookkeeping: when
 * the young one is full it becomes the old one, and hits in the old one are set again.
 */
class PieceCache {
  private young = new Map<string, number>();
  private old = new Map<string, number>();
  constructor(private readonly limit: number) {}

  /** Whether the last `get` found its piece in the old generation only: the caller sets it again. */
  aged = false;

  get(piece: string): number | undefined {
    this.aged = false;
    const hit = this.young.get(piece);
    if (hit !== undefined || this.old.size === 0) return hit;
    const aged = this.old.get(piece);
    this.aged = aged !== undefined;
    return aged;
  }

  set(piece: string, count: number): void {
    if (this.young.size >= this.limit) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(piece, count);
  }
}

/** The engine shared by `count`, `encode` and streaming counters of one tokenizer. */
export class TokenizerCore implements CountingCore {
  readonly family: PatternFamily;
  readonly nfkc: boolean;
  readonly specials: ReadonlyMap<string, number>;
  readonly maxSpecialLength: number;
  private readonly specialFinder: SpecialFinder | undefined;
  private readonly scan: Scanner;
  /** Whether the scanner's class table covers every code point, not just ASCII. */
  private allClasses = false;
  private asciiCheckBudget = ASCII_CHECK_BUDGET;
  // Called through the table: a table read in part replaces its lookup once read whole.
  private readonly table: RankTable;
  private readonly merger: BytePairMerger;
  private readonly cache: PieceCache | undefined;
  private hot: HotPieces | undefined;
  private piecesBeforeHot = PIECES_BEFORE_HOT;
  private scratch = new Uint8Array(1024);
  private readonly window: number;
  /** Pieces of more UTF-16 units than this may have more UTF-8 bytes than a window: they go through one. */
  private readonly longPieceUnits: number;
  private long: LongPieceMerger | undefined;
  /** The statistics of pieces over HOT_WIDTH units counted since they were last reset. */
  longestPiece = 0;
  pieceWork = 0;

  constructor(
    readonly name: EncodingName,
    table: RankTable,
    options: TokenizerOptions = {},
  ) {
    const family = familyOfPattern(table.meta.pattern);
    if (family !== ENCODINGS[name].family) {
      throw new Error(`rank table for ${name} has an unexpected pattern: ${table.meta.pattern}`);
    }
    this.family = family;
    this.nfkc = ENCODINGS[name].nfkc;
    this.table = table;
    this.merger = new BytePairMerger(table);
    this.specials = new Map(Object.entries(table.meta.specials));
    const names = [...this.specials.keys()];
    // The reference finds special tokens with an alternation in hash-map order; that order only
    // matters if one special token contains another, which no vocabulary here does. Streaming
    // counters rely on it too, to tell a special token that may still be arriving.
    for (const a of names) {
      if (names.some((b) => b !== a && b.includes(a))) throw new Error(`special token ${a} is part of another one`);
    }
    this.maxSpecialLength = Math.max(0, ...names.map((s) => s.length));
    this.specialFinder = names.length > 0 ? new SpecialFinder(names) : undefined;
    this.scan = makeScanner(family, true);
    const cacheSize = options.cacheSize ?? 65_536;
    this.cache = cacheSize > 0 ? new PieceCache(cacheSize) : undefined;
    this.window = options.window ?? WINDOW_BYTES;
    this.longPieceUnits = Math.floor(this.window / 3);
  }

  /**
   * Makes the class table cover `text`: the scanner starts with ASCII only, which is all a short
   * count usually needs; the first other text, or {@link ASCII_CHECK_BUDGET} characters of
   * ASCII, fill in the rest.
   */
  coverClasses(text: string): void {
    if (this.allClasses) return;
    const n = text.length;
    if (n <= this.asciiCheckBudget) {
      this.asciiCheckBudget -= n;
      let i = 0;
      while (i < n && text.charCodeAt(i) < 0x80) i++;
      if (i === n) return;
    }
    classTable();
    this.allClasses = true;
  }

  /** What the reference actually encodes: NFKC for Claude, and no lone surrogates. */
  prepare(text: string): string {
    return wellFormed(this.nfkc ? text.normalize('NFKC') : text);
  }

  /** Counts prepared text, special tokens included. */
  countPrepared(text: string): number {
    const finder = this.specialFinder;
    if (!finder) return this.countOrdinary(text);
    let total = 0;
    let start = 0;
    finder.reset(text);
    for (let at = finder.find(0); at >= 0; at = finder.find(start)) {
      // Each stretch between special tokens is matched on its own, as a whole string: the
      // pattern's look-ahead must see its end, not the special token.
      if (at > start) total += this.countOrdinary(start === 0 ? text.slice(0, at) : text.slice(start, at));
      total += 1;
      start = at + finder.name.length;
    }
    if (start < text.length) total += this.countOrdinary(start === 0 ? text : text.slice(start));
    return total;
  }

  encodePrepared(text: string): number[] {
    const out: number[] = [];
    const finder = this.specialFinder;
    let start = 0;
    if (finder) {
      finder.reset(text);
      for (let at = finder.find(0); at >= 0; at = finder.find(start)) {
        if (at > start) this.encodeOrdinary(text.slice(start, at), out);
        out.push(this.specials.get(finder.name)!);
        start = at + finder.name.length;
      }
    }
    if (start < text.length) this.encodeOrdinary(start === 0 ? text : text.slice(start), out);
    return out;
  }

  /** Counts text that holds no special token. */
  countOrdinary(text: string): number {
    if (!this.allClasses) this.coverClasses(text);
    const scan = this.scan;
    const n = text.length;
    let total = 0;
    for (let pos = 0; pos < n; ) {
      const end = scan(text, pos, n);
      total += this.countPiece(text, pos, end);
      pos = end;
    }
    return total;
  }

  private countPiece(text: string, start: number, end: number): number {
    if (end - start > HOT_WIDTH) return this.countColdPiece(text, start, end);
    const hot = this.hot;
    if (hot === undefined) {
      if (--this.piecesBeforeHot <= 0) this.hot = new HotPieces();
      return this.countColdPiece(text, start, end);
    }
    const known = hot.get(text, start, end);
    if (known >= 0) return known;
    const count = this.countColdPiece(text, start, end);
    hot.set(text, start, end, count);
    return count;
  }

  private countColdPiece(text: string, start: number, end: number): number {
    if (end - start > this.longPieceUnits) return this.mergeLongPiece(text, start, end);
    const n = this.utf8(text, start, end);
    if (end - start > HOT_WIDTH) this.notePiece(n);
    const bytes = this.scratch;
    // Most pieces are one token: answer those from the rank table, before touching the cache.
    if (this.table.lookup(bytes, 0, n) >= 0) return 1;
    const cache = this.cache;
    if (!cache || end - start > MAX_CACHED_PIECE) return this.merger.merge(bytes, n);
    const piece = text.slice(start, end);
    let count = cache.get(piece);
    if (count === undefined || cache.aged) {
      count ??= this.merger.merge(bytes, n);
      // V8 makes a slice of 13 units or more a view that keeps the whole text alive: the cache
      // would hold on to every text it saw a piece of (a stream's chunks, megabytes each).
      cache.set(piece.length < 13 ? piece : utf8Decoder.decode(bytes.subarray(0, n)), count);
    }
    return count;
  }

  private encodeOrdinary(text: string, out: number[]): void {
    if (!this.allClasses) this.coverClasses(text);
    const scan = this.scan;
    const n = text.length;
    for (let pos = 0; pos < n; ) {
      const end = scan(text, pos, n);
      if (end - pos > this.longPieceUnits) {
        this.mergeLongPiece(text, pos, end, out);
      } else {
        const len = this.utf8(text, pos, end);
        const whole = this.table.lookup(this.scratch, 0, len);
        if (whole >= 0) out.push(whole);
        else this.merger.merge(this.scratch, len, out);
      }
      pos = end;
    }
  }

  /** Merges a piece through a bounded window (see long-piece.ts). */
  private mergeLongPiece(text: string, start: number, end: number, out?: number[]): number {
    const long = (this.long ??= new LongPieceMerger(this.merger, this.table.maxTokenBytes(), this.window));
    const count = long.merge(text, start, end, out);
    this.notePiece(long.pieceBytes);
    return count;
  }

  /** Adds a piece of `n` UTF-8 bytes to the statistics (see CountStats). */
  private notePiece(n: number): void {
    if (n > this.longestPiece) this.longestPiece = n;
    this.pieceWork += n * n;
  }

  /** UTF-8 of `text[start..end)` into the scratch buffer; returns its length. */
  private utf8(text: string, start: number, end: number): number {
    if (this.scratch.length < 3 * (end - start)) this.scratch = new Uint8Array(3 * (end - start) + 64);
    return encodeUtf8(text, start, end, this.scratch, 0);
  }
}

export function createTokenizer(name: EncodingName, table: RankTable, options?: TokenizerOptions): Tokenizer {
  const core = new TokenizerCore(name, table, options);
  return {
    name,
    count: (text, stats) => {
      if (!stats) return core.countPrepared(core.prepare(text));
      core.longestPiece = 0;
      core.pieceWork = 0;
      const tokens = core.countPrepared(core.prepare(text));
      if (core.longestPiece > stats.longestPiece) stats.longestPiece = core.longestPiece;
      stats.pieceWork += core.pieceWork;
      return tokens;
    },
    encode: (text) => core.encodePrepared(core.prepare(text)),
    counter: () => createStreamingCounter(core),
  };
}
