import type { AreNode, AreOptions } from './are-ast.js';
import { Alphabet, atomIntervals } from './char-sets.js';

/**
 * Thompson automata for Postgres AREs, run as a lazy DFA: the time to test a subject grows
 * linearly with its length (times the pattern's size, once per new DFA state), never
 * exponentially, whatever the pattern. Greediness does not matter for `~` (only whether some
 * match exists), so everything but back references is regular:
 *
 * - anchors and word constraints are assertions on the position's context (string or line start
 *   and end, whether the characters before and after are word characters);
 * - each lookaround constraint is decided for every position of the subject beforehand, by its
 *   own automaton run once over the subject (lookahead backwards, lookbehind forwards), and is
 *   then one more bit of the context. A lookaround inside a lookaround is decided first.
 */

// Context bits of a position between two characters.
export const CTX_STR_START = 1;
export const CTX_STR_END = 2;
export const CTX_LINE_START = 4;
export const CTX_LINE_END = 8;
export const CTX_PREV_WORD = 16;
export const CTX_NEXT_WORD = 32;
const LOOK_SHIFT = 6;
/** Lookarounds are context bits 6 to 29. */
export const MAX_LOOKAROUNDS = 24;

const enum Kind {
  Char,
  Split,
  Eps,
  Assert,
  Match,
}

// Assertion codes (the `arg` of an Assert state). Lookaround k is LOOK_BASE + 2k (+1 negated).
const A_STR_START = 0;
const A_STR_END = 1;
const A_LINE_START = 2;
const A_LINE_END = 3;
const A_WORD_START = 4;
const A_WORD_END = 5;
const A_WORD_BOUNDARY = 6;
const A_NOT_WORD_BOUNDARY = 7;
const LOOK_BASE = 8;

function assertionHolds(code: number, ctx: number): boolean {
  switch (code) {
    case A_STR_START:
      return (ctx & CTX_STR_START) !== 0;
    case A_STR_END:
      return (ctx & CTX_STR_END) !== 0;
    case A_LINE_START:
      return (ctx & CTX_LINE_START) !== 0;
    case A_LINE_END:
      return (ctx & CTX_LINE_END) !== 0;
    case A_WORD_START:
      return (ctx & (CTX_PREV_WORD | CTX_NEXT_WORD)) === CTX_NEXT_WORD;
    case A_WORD_END:
      return (ctx & (CTX_PREV_WORD | CTX_NEXT_WORD)) === CTX_PREV_WORD;
    case A_WORD_BOUNDARY: {
      const w = ctx & (CTX_PREV_WORD | CTX_NEXT_WORD);
      return w === CTX_PREV_WORD || w === CTX_NEXT_WORD;
    }
    case A_NOT_WORD_BOUNDARY: {
      const w = ctx & (CTX_PREV_WORD | CTX_NEXT_WORD);
      return w === 0 || w === (CTX_PREV_WORD | CTX_NEXT_WORD);
    }
    default: {
      const k = (code - LOOK_BASE) >> 1;
      const holds = (ctx & (1 << (LOOK_SHIFT + k))) !== 0;
      return (code - LOOK_BASE) & 1 ? !holds : holds;
    }
  }
}

function assertionBits(code: number): number {
  switch (code) {
    case A_STR_START:
      return CTX_STR_START;
    case A_STR_END:
      return CTX_STR_END;
    case A_LINE_START:
      return CTX_LINE_START;
    case A_LINE_END:
      return CTX_LINE_END;
    case A_WORD_START:
    case A_WORD_END:
    case A_WORD_BOUNDARY:
    case A_NOT_WORD_BOUNDARY:
      return CTX_PREV_WORD | CTX_NEXT_WORD;
    default:
      return 1 << (LOOK_SHIFT + ((code - LOOK_BASE) >> 1));
  }
}

/** The pattern is larger than the limits allow (its bounded repetitions multiply out). */
export class TooComplexError extends Error {}

/** Deciding a subject took more work than the budget allows. */
export class BudgetExceededError extends Error {}

/** A mutable work counter shared by every automaton run for one subject. */
export interface Budget {
  left: number;
}

export interface LookSpec {
  /** Index of the lookaround (its context bit is 6 + index). */
  index: number;
  behind: boolean;
  body: AreNode;
}

export interface BuildLimits {
  /** Most states one automaton may have. */
  maxStates: number;
}

/** Compiles an AST into states; `reverse` builds the automaton of the reversed language. */
class Builder {
  readonly kind: number[] = [];
  readonly out1: number[] = [];
  readonly out2: number[] = [];
  readonly arg: number[] = [];

  constructor(
    private readonly alphabet: Alphabet,
    private readonly opts: AreOptions,
    private readonly looks: Map<AreNode, number>,
    private readonly limits: BuildLimits,
    private readonly reverse: boolean,
    /** Replaces back references (for an automaton that accepts a superset of the language). */
    private readonly backref?: (index: number, next: number) => number,
  ) {}

  add(kind: Kind, out1 = -1, out2 = -1, arg = 0): number {
    if (this.kind.length >= this.limits.maxStates) throw new TooComplexError(`more than ${this.limits.maxStates} automaton states`);
    this.kind.push(kind);
    this.out1.push(out1);
    this.out2.push(out2);
    this.arg.push(arg);
    return this.kind.length - 1;
  }

  /** The state that matches `node` and then continues at `next`. */
  compile(node: AreNode, next: number): number {
    switch (node.type) {
      case 'empty':
        return next;
      case 'char':
      case 'any':
      case 'set':
        return this.add(Kind.Char, next, -1, this.alphabet.add(atomIntervals(node, this.opts)));
      case 'anchor':
        return this.add(Kind.Assert, next, -1, this.anchorCode(node.kind));
      case 'group':
        return this.compile(node.body, next);
      case 'look': {
        const index = this.looks.get(node);
        if (index === undefined) throw new Error('lookaround without an index');
        return this.add(Kind.Assert, next, -1, LOOK_BASE + 2 * index + (node.negate ? 1 : 0));
      }
      case 'backref':
        if (!this.backref) throw new Error('back reference in a regular automaton');
        return this.backref(node.index, next);
      case 'concat': {
        let at = next;
        const items = node.items;
        if (this.reverse) for (let i = 0; i < items.length; i++) at = this.compile(items[i]!, at);
        else for (let i = items.length - 1; i >= 0; i--) at = this.compile(items[i]!, at);
        return at;
      }
      case 'alt': {
        const starts = node.branches.map((b) => this.compile(b, next));
        let at = starts[starts.length - 1]!;
        for (let i = starts.length - 2; i >= 0; i--) at = this.add(Kind.Split, starts[i]!, at);
        return at;
      }
      case 'repeat': {
        const { body, min, max } = node;
        let at = next;
        if (max === Infinity) {
          const loop = this.add(Kind.Split, -1, next);
          this.out1[loop] = this.compile(body, loop);
          at = loop;
        } else {
          for (let i = 0; i < max - min; i++) at = this.add(Kind.Split, this.compile(body, at), next);
        }
        for (let i = 0; i < min; i++) at = this.compile(body, at);
        return at;
      }
    }
  }

  private anchorCode(kind: string): number {
    switch (kind) {
      case 'bol':
        return this.opts.nlAnch ? A_LINE_START : A_STR_START;
      case 'eol':
        return this.opts.nlAnch ? A_LINE_END : A_STR_END;
      case 'strStart':
        return A_STR_START;
      case 'strEnd':
        return A_STR_END;
      case 'wordStart':
        return A_WORD_START;
      case 'wordEnd':
        return A_WORD_END;
      case 'wordBoundary':
        return A_WORD_BOUNDARY;
      default:
        return A_NOT_WORD_BOUNDARY;
    }
  }
}

interface DState {
  /** Sorted NFA states before the epsilon closure (`start` included when unanchored). */
  kernel: Int32Array;
  /** Per context index: the closure under that context. */
  closed: Array<Closed | undefined>;
}

interface Closed {
  match: boolean;
  /** Char states of the closure. */
  chars: Int32Array;
  /** Per character class: the next DFA state (null: no thread left). */
  next: Array<DState | null | undefined>;
}

// When a lazy DFA holds more than this many transition slots, its cache is dropped and rebuilt
// as needed: memory stays bounded, and each rebuilt state costs what any new state costs.
const CACHE_SLOTS = 1 << 20;
const MAX_CONTEXTS = 256;

/**
 * One automaton: forwards over the subject (the pattern, a lookbehind body) or backwards (a
 * lookahead body). `unanchored` automata may start at every position.
 */
export class Automaton {
  private readonly kind: Uint8Array;
  private readonly out1: Int32Array;
  private readonly out2: Int32Array;
  private readonly arg: Int32Array;
  readonly start: number;
  /** Context bits this automaton looks at. */
  readonly contextMask: number;
  /** Every match must begin where \A (or ^ outside newline-sensitive mode) holds. */
  readonly anchoredAtStringStart: boolean;
  private readonly alphabet: Alphabet;
  private cache = new Map<string, DState>();
  private slots = 0;
  private readonly seen: Int32Array;
  private stamp = 0;
  private readonly contextIndex = new Map<number, number>();
  private readonly smallContextIndex = new Int32Array(64).fill(-1);
  private contextCount = 0;
  /** Bumped whenever the tables are dropped. */
  private generation = 0;
  private initialState: DState | undefined;
  private initialGeneration = -1;

  constructor(builder: Builder, start: number, alphabet: Alphabet) {
    this.kind = Uint8Array.from(builder.kind);
    this.out1 = Int32Array.from(builder.out1);
    this.out2 = Int32Array.from(builder.out2);
    this.arg = Int32Array.from(builder.arg);
    this.start = start;
    this.alphabet = alphabet;
    this.seen = new Int32Array(this.kind.length);
    let mask = 0;
    for (let s = 0; s < this.kind.length; s++) if (this.kind[s] === Kind.Assert) mask |= assertionBits(this.arg[s]!);
    this.contextMask = mask;
    this.anchoredAtStringStart = this.computeAnchored();
  }

  get size(): number {
    return this.kind.length;
  }

  /** Whether every path from the start to a character or the match passes \A. */
  private computeAnchored(): boolean {
    const stack = [this.start];
    const visited = new Uint8Array(this.kind.length);
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (visited[s]) continue;
      visited[s] = 1;
      switch (this.kind[s]) {
        case Kind.Char:
        case Kind.Match:
          return false;
        case Kind.Assert:
          if (this.arg[s] !== A_STR_START) stack.push(this.out1[s]!);
          break;
        case Kind.Split:
          stack.push(this.out1[s]!, this.out2[s]!);
          break;
        default:
          stack.push(this.out1[s]!);
      }
    }
    return true;
  }

  /** A small index of a (masked) context value, for the per-state closure tables. */
  private indexOfContext(masked: number): number {
    let index = masked < 64 ? this.smallContextIndex[masked]! : (this.contextIndex.get(masked) ?? -1);
    if (index >= 0) return index;
    if (this.contextCount >= MAX_CONTEXTS) {
      // Many lookarounds give many distinct contexts: start the tables afresh.
      this.smallContextIndex.fill(-1);
      this.contextIndex.clear();
      this.contextCount = 0;
      this.cache = new Map();
      this.slots = 0;
      this.generation++;
    }
    index = this.contextCount++;
    if (masked < 64) this.smallContextIndex[masked] = index;
    else this.contextIndex.set(masked, index);
    return index;
  }

  private intern(kernel: Int32Array): DState {
    const key = kernel.join(',');
    let state = this.cache.get(key);
    if (state === undefined) {
      if (this.slots > CACHE_SLOTS) {
        this.cache = new Map();
        this.slots = 0;
        this.initialState = undefined;
      }
      state = { kernel, closed: [] };
      this.cache.set(key, state);
      this.slots += kernel.length + 1;
    }
    return state;
  }

  private close(state: DState, ctx: number, ctxIndex: number, budget: Budget): Closed {
    const stamp = ++this.stamp;
    const seen = this.seen;
    const chars: number[] = [];
    let match = false;
    const stack = Array.from(state.kernel);
    budget.left -= stack.length;
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (seen[s] === stamp) continue;
      seen[s] = stamp;
      budget.left--;
      switch (this.kind[s]) {
        case Kind.Char:
          chars.push(s);
          break;
        case Kind.Match:
          match = true;
          break;
        case Kind.Split:
          stack.push(this.out2[s]!, this.out1[s]!);
          break;
        case Kind.Eps:
          stack.push(this.out1[s]!);
          break;
        case Kind.Assert:
          if (assertionHolds(this.arg[s]!, ctx)) stack.push(this.out1[s]!);
          break;
      }
    }
    if (budget.left < 0) throw new BudgetExceededError();
    const closed: Closed = { match, chars: Int32Array.from(chars), next: new Array(this.alphabet.classCount) };
    state.closed[ctxIndex] = closed;
    this.slots += this.alphabet.classCount + chars.length;
    return closed;
  }

  private step(closed: Closed, cls: number, unanchored: boolean, budget: Budget): DState | null {
    const targets = new Set<number>();
    const sets = this.alphabet.sets;
    for (const s of closed.chars) if (sets[this.arg[s]!]![cls]) targets.add(this.out1[s]!);
    if (unanchored) targets.add(this.start);
    budget.left -= closed.chars.length + 1;
    if (budget.left < 0) throw new BudgetExceededError();
    const next = targets.size === 0 ? null : this.intern(Int32Array.from([...targets].sort((a, b) => a - b)));
    closed.next[cls] = next;
    return next;
  }

  /**
   * Runs over the subject's code points. `lookBits[p]` (when the pattern has lookarounds) holds
   * the context bits of the lookarounds decided so far at position p (0..n).
   * `record` (when given) receives, per position, whether a match ends there (forwards) or
   * begins there (backwards); without it the run stops at the first match and says whether
   * there was one.
   */
  run(cps: Int32Array, lookBits: Int32Array | null, options: { backwards: boolean; record?: Uint8Array }, budget: Budget): boolean {
    const n = cps.length;
    const { backwards, record } = options;
    const unanchored = backwards || !this.anchoredAtStringStart;
    const mask = this.contextMask;
    const alphabet = this.alphabet;
    let generation = this.generation;
    if (this.initialState === undefined || this.initialGeneration !== this.generation) {
      this.initialState = this.intern(Int32Array.of(this.start));
      this.initialGeneration = this.generation;
    }
    let state: DState | null = this.initialState;
    for (let step = 0; step <= n; step++) {
      const p = backwards ? n - step : step;
      const ctx = mask === 0 ? 0 : (positionContext(cps, p) | (lookBits === null ? 0 : lookBits[p]!)) & mask;
      const ci = mask === 0 ? 0 : this.indexOfContext(ctx);
      if (generation !== this.generation) {
        generation = this.generation;
        state = this.intern(state.kernel);
      }
      const closed: Closed = state.closed[ci] ?? this.close(state, ctx, ci, budget);
      if (closed.match) {
        if (!record) return true;
        record[p] = 1;
      }
      if (step === n) break;
      const cls = alphabet.classOf(cps[backwards ? p - 1 : p]!);
      const next: DState | null | undefined = closed.next[cls];
      state = next === undefined ? this.step(closed, cls, unanchored, budget) : next;
      if (state === null) return false;
      budget.left--;
    }
    if (budget.left < 0) throw new BudgetExceededError();
    return false;
  }
}

const isWord = (cp: number): boolean => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f || (cp >= 0x61 && cp <= 0x7a);

/** The context bits of position p (between characters p-1 and p) that do not come from lookarounds. */
export function positionContext(cps: Int32Array, p: number): number {
  const n = cps.length;
  let bits = 0;
  if (p === 0) bits |= CTX_STR_START | CTX_LINE_START;
  else {
    const before = cps[p - 1]!;
    if (before === 0x0a) bits |= CTX_LINE_START;
    if (isWord(before)) bits |= CTX_PREV_WORD;
  }
  if (p === n) bits |= CTX_STR_END | CTX_LINE_END;
  else {
    const after = cps[p]!;
    if (after === 0x0a) bits |= CTX_LINE_END;
    if (isWord(after)) bits |= CTX_NEXT_WORD;
  }
  return bits;
}

export interface CompiledAutomata {
  /** Not sealed yet: the caller may add sets, then calls `seal()` before running anything. */
  alphabet: Alphabet;
  /** Each lookaround node's index. */
  lookIndexes: Map<AreNode, number>;
  main: Automaton;
  /** Lookaround automata, innermost first; `index` is the lookaround's context bit. */
  looks: Array<{ index: number; behind: boolean; automaton: Automaton }>;
  /** Every context bit any automaton looks at. */
  contextMask: number;
}

function collectLooks(node: AreNode, out: AreNode[]): void {
  switch (node.type) {
    case 'look':
      collectLooks(node.body, out);
      out.push(node);
      break;
    case 'group':
    case 'repeat':
      collectLooks(node.body, out);
      break;
    case 'concat':
      for (const n of node.items) collectLooks(n, out);
      break;
    case 'alt':
      for (const n of node.branches) collectLooks(n, out);
      break;
    default:
      break;
  }
}

/**
 * Builds the automata of a parsed pattern. `backref` (for patterns with back references) turns
 * each into something regular; without it a back reference is an error.
 */
export function buildAutomata(
  ast: AreNode,
  opts: AreOptions,
  limits: BuildLimits,
  backref?: (index: number) => AreNode,
): CompiledAutomata {
  const alphabet = new Alphabet();
  const lookNodes: AreNode[] = [];
  collectLooks(ast, lookNodes);
  if (lookNodes.length > MAX_LOOKAROUNDS) throw new TooComplexError(`more than ${MAX_LOOKAROUNDS} lookaround constraints`);
  const indexes = new Map(lookNodes.map((node, i) => [node, i]));
  let total = 0;
  const make = (body: AreNode, reverse: boolean): Automaton => {
    const builder: Builder = new Builder(alphabet, opts, indexes, { maxStates: limits.maxStates - total }, reverse, backref ? (index, next) => builder.compile(backref(index), next) : undefined);
    const match = builder.add(Kind.Match);
    const start = builder.compile(body, match);
    total += builder.kind.length;
    return new Automaton(builder, start, alphabet);
  };
  const looks = lookNodes.map((node) => {
    const look = node as Extract<AreNode, { type: 'look' }>;
    // A lookahead's body is run backwards from every position, so its automaton is reversed.
    return { index: indexes.get(node)!, behind: look.behind, automaton: make(look.body, !look.behind) };
  });
  const main = make(ast, false);
  let contextMask = main.contextMask;
  for (const l of looks) contextMask |= l.automaton.contextMask;
  return { alphabet, lookIndexes: indexes, main, looks, contextMask };
}

export { LOOK_SHIFT };
