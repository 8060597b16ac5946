import type { AreNode, ParsedAre, SetItem } from './are-ast.js';
import { MAX_GROUP_DEPTH } from './are-parser.js';

/**
 * Reads a JavaScript regular expression (no flags but `i`, as the server compiles a pricing
 * tier's `usageDetailPattern`) into the ARE syntax tree, so that it runs on the same
 * linear-time automata as model patterns. Only what maps exactly is accepted; back references,
 * named groups and other rarities give `unsupported` (never a run on a backtracking engine).
 * The subject is then read as UTF-16 code units, as a regex without the `u` flag reads it.
 */
export type JsParseResult = { ok: true; parsed: ParsedAre } | { ok: false; reason: string };

class Unsupported extends Error {}

// JavaScript's \s: white space and line terminators.
const JS_SPACE: SetItem[] = [
  { kind: 'range', from: 0x09, to: 0x0d },
  { kind: 'char', cp: 0x20 },
  { kind: 'char', cp: 0xa0 },
  { kind: 'char', cp: 0x1680 },
  { kind: 'range', from: 0x2000, to: 0x200a },
  { kind: 'range', from: 0x2028, to: 0x2029 },
  { kind: 'char', cp: 0x202f },
  { kind: 'char', cp: 0x205f },
  { kind: 'char', cp: 0x3000 },
  { kind: 'char', cp: 0xfeff },
];
const JS_DIGIT: SetItem[] = [{ kind: 'range', from: 0x30, to: 0x39 }];
const JS_WORD: SetItem[] = [{ kind: 'class', name: 'word' }];
// `.` without the `s` flag: anything but line terminators.
const JS_LINE_TERMINATORS: SetItem[] = [
  { kind: 'char', cp: 0x0a },
  { kind: 'char', cp: 0x0d },
  { kind: 'range', from: 0x2028, to: 0x2029 },
];

class JsParser {
  private pos = 0;
  private groups = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  parse(): AreNode {
    const node = this.alt();
    if (this.pos < this.src.length) throw new SyntaxError('unmatched )');
    return node;
  }

  private peek(o = 0): string | undefined {
    return this.src[this.pos + o];
  }

  private alt(): AreNode {
    const branches = [this.seq()];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.seq());
    }
    return branches.length === 1 ? branches[0]! : { type: 'alt', branches };
  }

  private seq(): AreNode {
    const items: AreNode[] = [];
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? items[0]! : { type: 'concat', items };
  }

  private quantified(atom: AreNode): AreNode {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) return atom; // a literal brace, as Annex B reads it
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > 1000 || (max !== Infinity && max > 1000)) throw new Unsupported('a repetition count above 1000');
      this.pos += m[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.peek() === '?') this.pos++;
    if (atom.type === 'anchor') throw new SyntaxError('nothing to repeat');
    if (atom.type === 'look') return atom; // Annex B: a quantified lookahead matches as the lookahead itself when it can
    return { type: 'repeat', body: atom, min, max, greedy: true };
  }

  private atom(): AreNode {
    const c = this.src[this.pos++]!;
    switch (c) {
      case '^':
        return { type: 'anchor', kind: 'strStart' };
      case '$':
        return { type: 'anchor', kind: 'strEnd' };
      case '.':
        return { type: 'set', negated: true, items: JS_LINE_TERMINATORS, negatedEscape: true };
      case '(':
        return this.group();
      case '[':
        return this.bracket();
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        throw new SyntaxError('nothing to repeat');
      case ')':
        throw new SyntaxError('unmatched )');
      default:
        return { type: 'char', cp: c.charCodeAt(0) };
    }
  }

  private group(): AreNode {
    if (this.depth >= MAX_GROUP_DEPTH) throw new Unsupported(`parentheses nested more than ${MAX_GROUP_DEPTH} deep`);
    this.depth++;
    try {
      return this.groupBody();
    } finally {
      this.depth--;
    }
  }

  private groupBody(): AreNode {
    let look: { behind: boolean; negate: boolean } | undefined;
    let capture: number | null = null;
    if (this.peek() === '?') {
      const rest = this.src.slice(this.pos + 1, this.pos + 3);
      if (rest.startsWith(':')) this.pos += 2;
      else if (rest.startsWith('=') || rest.startsWith('!')) {
        look = { behind: false, negate: rest[0] === '!' };
        this.pos += 2;
      } else if (rest === '<=' || rest === '<!') {
        look = { behind: true, negate: rest[1] === '!' };
        this.pos += 3;
      } else throw new Unsupported('named groups');
    } else capture = ++this.groups;
    const body = this.alt();
    if (this.peek() !== ')') throw new SyntaxError('unterminated group');
    this.pos++;
    return look ? { type: 'look', ...look, body } : { type: 'group', capture, body };
  }

  private bracket(): AreNode {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const items: SetItem[] = [];
    while (this.peek() !== ']') {
      if (this.pos >= this.src.length) throw new SyntaxError('unterminated character class');
      const from = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined && !Array.isArray(from)) {
        this.pos++;
        const to = this.classAtom();
        if (Array.isArray(to)) {
          items.push({ kind: 'char', cp: from }, { kind: 'char', cp: 0x2d }, ...to);
          continue;
        }
        if (to < from) throw new SyntaxError('range out of order in character class');
        items.push({ kind: 'range', from, to });
        continue;
      }
      if (Array.isArray(from)) items.push(...from);
      else items.push({ kind: 'char', cp: from });
    }
    this.pos++;
    return { type: 'set', negated, items, ...(negated ? { negatedEscape: true } : {}) };
  }

  /** A character of a class, or the members of a class escape. */
  private classAtom(): number | SetItem[] {
    const c = this.src[this.pos++]!;
    if (c !== '\\') return c.charCodeAt(0);
    const e = this.src[this.pos++];
    if (e === undefined) throw new SyntaxError('\\ at end of pattern');
    if (e === 'b') return 0x08;
    if (e === 'd' || e === 'w' || e === 's') return e === 'd' ? JS_DIGIT : e === 'w' ? JS_WORD : JS_SPACE;
    if (e === 'D' || e === 'W' || e === 'S') throw new Unsupported('\\D, \\W or \\S inside a class');
    if (e === '-') return 0x2d;
    return this.characterEscape(e, true);
  }

  private escape(): AreNode {
    const e = this.src[this.pos++];
    if (e === undefined) throw new SyntaxError('\\ at end of pattern');
    switch (e) {
      case 'b':
        return { type: 'anchor', kind: 'wordBoundary' };
      case 'B':
        return { type: 'anchor', kind: 'notWordBoundary' };
      case 'd':
        return { type: 'set', negated: false, items: JS_DIGIT };
      case 'D':
        return { type: 'set', negated: true, items: JS_DIGIT, negatedEscape: true };
      case 'w':
        return { type: 'set', negated: false, items: JS_WORD };
      case 'W':
        return { type: 'set', negated: true, items: JS_WORD, negatedEscape: true };
      case 's':
        return { type: 'set', negated: false, items: JS_SPACE };
      case 'S':
        return { type: 'set', negated: true, items: JS_SPACE, negatedEscape: true };
      case 'k':
        throw new Unsupported('named back references');
    }
    if (e >= '1' && e <= '9') throw new Unsupported('back references');
    return { type: 'char', cp: this.characterEscape(e, false) };
  }

  private characterEscape(e: string, inClass: boolean): number {
    const hex = (len: number): number | undefined => {
      const digits = this.src.slice(this.pos, this.pos + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(digits)) return undefined;
      this.pos += len;
      return parseInt(digits, 16);
    };
    switch (e) {
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case 'f':
        return 0x0c;
      case 'x':
        return hex(2) ?? 0x78;
      case 'u':
        return hex(4) ?? 0x75;
      case 'c': {
        const letter = this.peek();
        if (letter !== undefined && /[A-Za-z]/.test(letter)) {
          this.pos++;
          return letter.charCodeAt(0) % 32;
        }
        if (inClass) throw new Unsupported('\\c without a letter');
        this.pos--; // a literal backslash, then "c"
        return 0x5c;
      }
      case '0':
        if (!/[0-9]/.test(this.peek() ?? '')) return 0;
        throw new Unsupported('octal escapes');
    }
    if (/[0-9]/.test(e)) throw new Unsupported('octal escapes');
    // An identity escape: the character itself.
    return e.charCodeAt(0);
  }
}

/** Parses `pattern` as `new RegExp(pattern, caseInsensitive ? 'i' : '')` would read it. */
export function parseJsRegex(pattern: string, caseInsensitive: boolean): JsParseResult {
  try {
    new RegExp(pattern, caseInsensitive ? 'i' : '');
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  if (/[\ud800-\udfff]/.test(pattern)) return { ok: false, reason: 'uses characters outside the Basic Multilingual Plane, which llmobs does not evaluate offline' };
  try {
    const parser = new JsParser(pattern);
    const ast = parser.parse();
    return {
      ok: true,
      parsed: { ast, options: { icase: caseInsensitive, nlStop: false, nlAnch: false, expanded: false, quote: false }, prefix: '', groupCount: 0 },
    };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: `uses ${error.message}, which llmobs does not evaluate offline` };
    return { ok: false, reason: (error as Error).message };
  }
}
