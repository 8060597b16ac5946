import type { AreNode, AreOptions, ClassName, ParsedAre, SetItem } from './are-ast.js';
import { CLASS_NAMES } from './are-ast.js';

/**
 * A parser for Postgres "advanced regular expressions" (the flavour behind `text ~ pattern`),
 * following the lexer and parser of Postgres' regex engine (regc_lex.c, regcomp.c) and the
 * "POSIX Regular Expressions" chapter of its manual.
 *
 * `invalid` means Postgres rejects the pattern. `unsupported` means the pattern uses something
 * whose exact behaviour cannot be reproduced offline (BRE/ERE modes, named collating elements,
 * version-dependent syntax); we say so instead of guessing.
 */
export type AreParseResult =
  | { ok: true; parsed: ParsedAre }
  | { ok: false; kind: 'invalid' | 'unsupported'; reason: string };

class AreError extends Error {
  constructor(
    readonly kind: 'invalid' | 'unsupported',
    readonly reason: string,
  ) {
    super(reason);
  }
}

const invalid = (reason: string): AreError => new AreError('invalid', reason);
const unsupported = (reason: string): AreError => new AreError('unsupported', reason);

const cp = (s: string): number => s.codePointAt(0) ?? 0;
const C = {
  lparen: cp('('),
  rparen: cp(')'),
  lbrack: cp('['),
  rbrack: cp(']'),
  lbrace: cp('{'),
  rbrace: cp('}'),
  backslash: cp('\\'),
  star: cp('*'),
  plus: cp('+'),
  question: cp('?'),
  pipe: cp('|'),
  dot: cp('.'),
  caret: cp('^'),
  dollar: cp('$'),
  colon: cp(':'),
  equals: cp('='),
  bang: cp('!'),
  lt: cp('<'),
  gt: cp('>'),
  hash: cp('#'),
  minus: cp('-'),
  comma: cp(','),
  newline: 0x0a,
};

// Postgres' RE_DUPMAX: the largest count a bound {m,n} may use.
const DUP_MAX = 255;

// Groups nested deeper than this are not evaluated: every step after parsing walks the tree
// recursively, and a few kilobytes of parentheses would overflow the stack (Postgres itself
// refuses deep nesting by its stack depth, "regular expression is too complex").
export const MAX_GROUP_DEPTH = 200;

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isAsciiAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAsciiAlnum = (c: number): boolean => isAsciiAlpha(c) || isDigit(c);
const isAsciiSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

type EscapeResult =
  | { t: 'char'; cp: number }
  | { t: 'class'; name: ClassName; negated: boolean }
  | { t: 'anchor'; kind: 'strStart' | 'strEnd' | 'wordStart' | 'wordEnd' | 'wordBoundary' | 'notWordBoundary' }
  | { t: 'backref'; index: number };

class Parser {
  private pos = 0;
  private groupCount = 0;
  private readonly completed = new Set<number>();
  private lookDepth = 0;
  private groupDepth = 0;

  constructor(
    private readonly cps: number[],
    start: number,
    private readonly opts: AreOptions,
  ) {
    this.pos = start;
  }

  get capturingGroups(): number {
    return this.groupCount;
  }

  private peek(offset = 0): number | undefined {
    return this.cps[this.pos + offset];
  }

  private eof(): boolean {
    return this.pos >= this.cps.length;
  }

  parseAll(): AreNode {
    const node = this.parseAlt();
    if (!this.eof()) throw invalid('parentheses () not balanced');
    return node;
  }

  /** Skips what the lexer skips between tokens: `(?#...)` comments, and in expanded mode white space and `#` comments. */
  private skipTrivia(): void {
    for (;;) {
      const c = this.peek();
      if (c === undefined) return;
      if (this.opts.expanded) {
        if (isAsciiSpace(c)) {
          this.pos++;
          continue;
        }
        if (c > 0x7f && /\s/u.test(String.fromCodePoint(c))) {
          throw unsupported('expanded mode (x) with a non-ASCII white-space character, which Postgres treats by locale');
        }
        if (c === C.hash) {
          while (!this.eof() && this.peek() !== C.newline) this.pos++;
          continue;
        }
      }
      if (c === C.lparen && this.peek(1) === C.question && this.peek(2) === C.hash) {
        this.pos += 3;
        while (!this.eof() && this.peek() !== C.rparen) this.pos++;
        if (!this.eof()) this.pos++;
        continue;
      }
      return;
    }
  }

  private parseAlt(): AreNode {
    const branches: AreNode[] = [this.parseBranch()];
    while (this.peek() === C.pipe) {
      this.pos++;
      branches.push(this.parseBranch());
    }
    return branches.length === 1 ? branches[0]! : { type: 'alt', branches };
  }

  private startsQuantifier(): boolean {
    const c = this.peek();
    return c === C.star || c === C.plus || c === C.question || (c === C.lbrace && isDigit(this.peek(1)));
  }

  private parseBranch(): AreNode {
    const items: AreNode[] = [];
    for (;;) {
      this.skipTrivia();
      const c = this.peek();
      if (c === undefined || c === C.pipe || c === C.rparen) break;
      if (this.startsQuantifier()) throw invalid('quantifier operand invalid');
      const atom = this.parseAtom();
      this.skipTrivia();
      if (!this.startsQuantifier()) {
        items.push(atom);
        continue;
      }
      if (atom.type === 'anchor' || atom.type === 'look') throw invalid('quantifier operand invalid');
      const rep = this.parseQuantifier(atom);
      this.skipTrivia();
      if (this.startsQuantifier()) throw invalid('quantifier operand invalid');
      items.push(rep);
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? items[0]! : { type: 'concat', items };
  }

  private parseQuantifier(body: AreNode): AreNode {
    const c = this.peek()!;
    let min: number;
    let max: number;
    if (c === C.star) {
      this.pos++;
      [min, max] = [0, Infinity];
    } else if (c === C.plus) {
      this.pos++;
      [min, max] = [1, Infinity];
    } else if (c === C.question) {
      this.pos++;
      [min, max] = [0, 1];
    } else {
      this.pos++; // {
      min = this.readBoundNumber();
      max = min;
      this.skipBoundSpace();
      if (this.peek() === C.comma) {
        this.pos++;
        this.skipBoundSpace();
        max = isDigit(this.peek()) ? this.readBoundNumber() : Infinity;
        this.skipBoundSpace();
      }
      if (this.peek() !== C.rbrace) throw invalid('invalid repetition count(s)');
      this.pos++;
      if (min > max) throw invalid('invalid repetition count(s)');
    }
    // The non-greedy marker must follow immediately; expanded-mode space would make it a new quantifier.
    let greedy = true;
    if (this.peek() === C.question) {
      this.pos++;
      greedy = false;
    }
    return { type: 'repeat', body, min, max, greedy };
  }

  private skipBoundSpace(): void {
    if (!this.opts.expanded) return;
    while (!this.eof() && isAsciiSpace(this.peek()!)) this.pos++;
  }

  private readBoundNumber(): number {
    this.skipBoundSpace();
    if (!isDigit(this.peek())) throw invalid('invalid repetition count(s)');
    let n = 0;
    while (isDigit(this.peek())) {
      n = n * 10 + (this.peek()! - 0x30);
      this.pos++;
      if (n > DUP_MAX) throw invalid('invalid repetition count(s)');
      this.skipBoundSpace();
    }
    return n;
  }

  private parseAtom(): AreNode {
    const c = this.peek()!;
    switch (c) {
      case C.lparen:
        return this.parseGroup();
      case C.lbrack:
        return this.parseBracketOrWordConstraint();
      case C.dot:
        this.pos++;
        return { type: 'any' };
      case C.caret:
        this.pos++;
        return { type: 'anchor', kind: 'bol' };
      case C.dollar:
        this.pos++;
        return { type: 'anchor', kind: 'eol' };
      case C.backslash: {
        this.pos++;
        const e = this.parseEscape(false);
        switch (e.t) {
          case 'char':
            return { type: 'char', cp: e.cp };
          case 'class':
            return e.negated
              ? { type: 'set', negated: true, items: [{ kind: 'class', name: e.name }], negatedEscape: true }
              : { type: 'set', negated: false, items: [{ kind: 'class', name: e.name }] };
          case 'anchor':
            return { type: 'anchor', kind: e.kind };
          case 'backref':
            if (this.lookDepth > 0) throw invalid('lookaround constraints cannot contain back references');
            return { type: 'backref', index: e.index };
        }
        break;
      }
      default:
        this.pos++;
        return { type: 'char', cp: c };
    }
    throw invalid('unreachable');
  }

  private parseGroup(): AreNode {
    if (this.groupDepth >= MAX_GROUP_DEPTH) throw unsupported(`parentheses nested more than ${MAX_GROUP_DEPTH} deep, too deep to evaluate safely`);
    this.groupDepth++;
    try {
      return this.parseGroupBody();
    } finally {
      this.groupDepth--;
    }
  }

  private parseGroupBody(): AreNode {
    this.pos++; // (
    if (this.peek() === C.question) {
      const kind = this.peek(1);
      if (kind === C.colon) {
        this.pos += 2;
        return this.finishGroup(null);
      }
      if (kind === C.equals || kind === C.bang) {
        this.pos += 2;
        return this.finishLook(false, kind === C.bang);
      }
      if (kind === C.lt && (this.peek(2) === C.equals || this.peek(2) === C.bang)) {
        const negate = this.peek(2) === C.bang;
        this.pos += 3;
        return this.finishLook(true, negate);
      }
      // Embedded options are only allowed at the very start of the pattern.
      throw invalid('quantifier operand invalid');
    }
    // Parentheses inside lookaround constraints never capture.
    if (this.lookDepth > 0) return this.finishGroup(null);
    const index = ++this.groupCount;
    const node = this.finishGroup(index);
    this.completed.add(index);
    return node;
  }

  private finishGroup(capture: number | null): AreNode {
    const body = this.parseAlt();
    if (this.peek() !== C.rparen) throw invalid('parentheses () not balanced');
    this.pos++;
    return { type: 'group', capture, body };
  }

  private finishLook(behind: boolean, negate: boolean): AreNode {
    this.lookDepth++;
    const body = this.parseAlt();
    this.lookDepth--;
    if (this.peek() !== C.rparen) throw invalid('parentheses () not balanced');
    this.pos++;
    return { type: 'look', behind, negate, body };
  }

  private parseBracketOrWordConstraint(): AreNode {
    // [[:<:]] and [[:>:]] are the historical spellings of \m and \M.
    const seq = this.cps.slice(this.pos, this.pos + 7);
    if (seq.length === 7 && seq[1] === C.lbrack && seq[2] === C.colon && seq[4] === C.colon && seq[5] === C.rbrack && seq[6] === C.rbrack) {
      if (seq[3] === C.lt || seq[3] === C.gt) {
        this.pos += 7;
        return { type: 'anchor', kind: seq[3] === C.lt ? 'wordStart' : 'wordEnd' };
      }
    }
    this.pos++; // [
    let negated = false;
    if (this.peek() === C.caret) {
      negated = true;
      this.pos++;
    }
    const items: SetItem[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw invalid('brackets [] not balanced');
      if (c === C.rbrack && !first) {
        this.pos++;
        break;
      }
      this.parseBracketPart(items, first);
      first = false;
    }
    return { type: 'set', negated, items };
  }

  /** One element of a bracket expression: a character, a range, a class, or an equivalence class. */
  private parseBracketPart(items: SetItem[], first: boolean): void {
    const c = this.peek()!;
    let start: number;
    if (c === C.minus && !first && this.peek(1) !== C.rbrack) {
      throw invalid('invalid character range');
    }
    if (c === C.lbrack && (this.peek(1) === C.colon || this.peek(1) === C.equals || this.peek(1) === C.dot)) {
      const kind = this.peek(1)!;
      const content = this.readBracketSpecial(kind);
      if (kind === C.colon) {
        const name = String.fromCodePoint(...content);
        if (!(CLASS_NAMES as readonly string[]).includes(name)) throw invalid(`invalid character class "${name}"`);
        items.push({ kind: 'class', name: name as ClassName });
        return;
      }
      if (content.length !== 1) {
        throw unsupported(`named collating element or equivalence class "${String.fromCodePoint(...content)}"`);
      }
      start = content[0]!;
      if (kind === C.equals) {
        // Postgres implements an equivalence class as the character itself.
        items.push({ kind: 'char', cp: start });
        return;
      }
    } else if (c === C.backslash) {
      this.pos++;
      const e = this.parseEscape(true);
      if (e.t === 'class') {
        if (e.negated) throw unsupported('\\D, \\S or \\W inside brackets, which only some Postgres versions accept');
        items.push({ kind: 'class', name: e.name });
        return;
      }
      if (e.t !== 'char') throw invalid('invalid escape \\ sequence');
      start = e.cp;
    } else {
      this.pos++;
      start = c;
    }
    if (this.peek() === C.minus && this.peek(1) !== C.rbrack && this.peek(1) !== undefined) {
      this.pos++;
      const end = this.parseRangeEnd();
      if (start > end) throw invalid('invalid character range');
      items.push({ kind: 'range', from: start, to: end });
      return;
    }
    items.push({ kind: 'char', cp: start });
  }

  private parseRangeEnd(): number {
    const c = this.peek()!;
    if (c === C.lbrack && this.peek(1) === C.dot) {
      const content = this.readBracketSpecial(C.dot);
      if (content.length !== 1) throw unsupported('named collating element as a range end');
      return content[0]!;
    }
    if (c === C.lbrack && (this.peek(1) === C.colon || this.peek(1) === C.equals)) throw invalid('invalid character range');
    if (c === C.backslash) {
      this.pos++;
      const e = this.parseEscape(true);
      if (e.t !== 'char') throw invalid('invalid character range');
      return e.cp;
    }
    this.pos++;
    return c;
  }

  /** Reads `[:name:]`, `[=x=]` or `[.x.]` and returns what is between the delimiters. */
  private readBracketSpecial(kind: number): number[] {
    this.pos += 2;
    const content: number[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw invalid('brackets [] not balanced');
      if (c === kind && this.peek(1) === C.rbrack) {
        this.pos += 2;
        break;
      }
      content.push(c);
      this.pos++;
    }
    if (content.length === 0) throw invalid('invalid collation character');
    return content;
  }

  private readDigits(base: number, min: number, max: number): number {
    let n = 0;
    let count = 0;
    while (count < max) {
      const c = this.peek();
      const v = base === 16 ? hexValue(c) : isDigit(c) && c! - 0x30 < base ? c! - 0x30 : -1;
      if (v < 0) break;
      n = n * base + v;
      count++;
      this.pos++;
    }
    if (count < min) throw invalid('invalid escape \\ sequence');
    return n;
  }

  /** The escape after a backslash, following Postgres' lexescape(). */
  private parseEscape(inBracket: boolean): EscapeResult {
    const c = this.peek();
    if (c === undefined) throw invalid('invalid escape \\ sequence');
    this.pos++;
    if (c > 0x7f) throw unsupported('a backslash before a non-ASCII character, which Postgres classifies by locale');
    if (!isAsciiAlnum(c)) return { t: 'char', cp: c };
    const ch = String.fromCodePoint(c);
    const simple: Record<string, number> = { a: 0x07, b: 0x08, B: 0x5c, e: 0x1b, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
    if (ch in simple) return { t: 'char', cp: simple[ch]! };
    const classes: Record<string, ClassName> = { d: 'digit', s: 'space', w: 'word' };
    if (ch.toLowerCase() in classes && 'dswDSW'.includes(ch)) {
      return { t: 'class', name: classes[ch.toLowerCase()]!, negated: ch !== ch.toLowerCase() };
    }
    const anchors: Record<string, 'strStart' | 'strEnd' | 'wordStart' | 'wordEnd' | 'wordBoundary' | 'notWordBoundary'> = {
      A: 'strStart',
      Z: 'strEnd',
      m: 'wordStart',
      M: 'wordEnd',
      y: 'wordBoundary',
      Y: 'notWordBoundary',
    };
    if (ch in anchors) {
      if (inBracket) throw invalid('invalid escape \\ sequence');
      return { t: 'anchor', kind: anchors[ch]! };
    }
    switch (ch) {
      case 'c': {
        const x = this.peek();
        if (x === undefined) throw invalid('invalid escape \\ sequence');
        this.pos++;
        return { t: 'char', cp: x & 0x1f };
      }
      case 'u':
        return { t: 'char', cp: this.readDigits(16, 4, 4) };
      case 'U':
        return { t: 'char', cp: this.readDigits(16, 8, 8) };
      case 'x':
        return { t: 'char', cp: this.readDigits(16, 1, 255) };
      case '0': {
        this.pos--;
        return { t: 'char', cp: this.readOctal() };
      }
    }
    if (isDigit(c)) {
      // A single digit is always a back reference; more digits are one only if a group of that
      // number has been opened, otherwise they are an octal escape.
      const save = this.pos;
      this.pos--;
      const n = this.readDigits(10, 1, 255);
      if (this.pos === save || (n > 0 && n <= this.groupCount)) {
        if (inBracket) throw invalid('invalid escape \\ sequence');
        if (!this.completed.has(n)) throw invalid('invalid backreference number');
        return { t: 'backref', index: n };
      }
      this.pos = save - 1;
      return { t: 'char', cp: this.readOctal() };
    }
    throw invalid('invalid escape \\ sequence');
  }

  private readOctal(): number {
    const start = this.pos;
    let n = this.readDigits(8, 1, 3);
    if (n > 0xff) {
      // Postgres keeps octal escapes within one byte: the third digit is given back.
      this.pos = start + 2;
      n >>= 3;
    }
    return n;
  }
}

function defaultOptions(): AreOptions {
  return { icase: false, nlStop: false, nlAnch: false, expanded: false, quote: false };
}

/** Parses a Postgres ARE as `text ~ pattern` would. */
export function parseAre(pattern: string): AreParseResult {
  const cps = Array.from(pattern, (ch) => ch.codePointAt(0)!);
  const opts = defaultOptions();
  let pos = 0;
  let prefix = '';
  try {
    // Directors: "***:" (the rest is an ARE) and "***=" (the rest is a literal string).
    if (cps[0] === C.star && cps[1] === C.star && cps[2] === C.star) {
      if (cps[3] === C.colon) pos = 4;
      else if (cps[3] === C.equals) {
        opts.quote = true;
        pos = 4;
      } else throw invalid('invalid regular expression director');
    }
    if (!opts.quote && cps[pos] === C.lparen && cps[pos + 1] === C.question && cps[pos + 2] !== undefined && isAsciiAlpha(cps[pos + 2]!)) {
      let p = pos + 2;
      for (; p < cps.length && isAsciiAlpha(cps[p]!); p++) {
        switch (String.fromCodePoint(cps[p]!)) {
          case 'b':
            throw unsupported('embedded option "b" (basic regular expression syntax)');
          case 'e':
            throw unsupported('embedded option "e" (extended regular expression syntax)');
          case 'c':
            opts.icase = false;
            break;
          case 'i':
            opts.icase = true;
            break;
          case 'm':
          case 'n':
            opts.nlStop = true;
            opts.nlAnch = true;
            break;
          case 'p':
            opts.nlStop = true;
            opts.nlAnch = false;
            break;
          case 'q':
            opts.quote = true;
            break;
          case 's':
            opts.nlStop = false;
            opts.nlAnch = false;
            break;
          case 't':
            opts.expanded = false;
            break;
          case 'w':
            opts.nlStop = false;
            opts.nlAnch = true;
            break;
          case 'x':
            opts.expanded = true;
            break;
          default:
            throw invalid(`invalid embedded option "${String.fromCodePoint(cps[p]!)}"`);
        }
      }
      if (cps[p] !== C.rparen) throw invalid('invalid embedded option');
      prefix = String.fromCodePoint(...cps.slice(0, p + 1));
      pos = p + 1;
      if (opts.quote) opts.expanded = false;
    } else if (pos > 0) {
      prefix = String.fromCodePoint(...cps.slice(0, pos));
    }
    if (opts.quote) {
      const items: AreNode[] = cps.slice(pos).map((c) => ({ type: 'char', cp: c }));
      const ast: AreNode = items.length === 0 ? { type: 'empty' } : items.length === 1 ? items[0]! : { type: 'concat', items };
      return { ok: true, parsed: { ast, options: opts, prefix, groupCount: 0 } };
    }
    const parser = new Parser(cps, pos, opts);
    const ast = parser.parseAll();
    return { ok: true, parsed: { ast, options: opts, prefix, groupCount: parser.capturingGroups } };
  } catch (e) {
    if (e instanceof AreError) return { ok: false, kind: e.kind, reason: e.reason };
    throw e;
  }
}
