import type { AreNode } from './are-ast.js';
import { type Alphabet, atomIntervals } from './char-sets.js';
import { BudgetExceededError, type Budget, positionContext, CTX_LINE_END, CTX_LINE_START, CTX_NEXT_WORD, CTX_PREV_WORD, CTX_STR_END, CTX_STR_START, LOOK_SHIFT } from './automaton.js';

/**
 * Back references make a pattern non-regular: no automaton decides it in linear time. This
 * searches every way the pattern can match, as a backtracking engine does, but counts its steps
 * against a budget and gives up (BudgetExceededError) rather than running unbounded. Lookaround
 * constraints and anchors are read from the context bits computed by the automata beforehand
 * (lookaround bodies cannot hold back references, so those stay linear).
 */

type Cont = (pos: number, caps: readonly number[]) => boolean;
type Matcher = (pos: number, caps: readonly number[], k: Cont) => boolean;

export interface BacktrackInput {
  cps: Int32Array;
  /** Lookaround context bits per position (null without lookarounds). */
  lookBits: Int32Array | null;
  budget: Budget;
}

const fold = (cp: number): number => {
  if (cp >= 0x41 && cp <= 0x5a) return cp + 0x20;
  if (cp < 0x80) return cp;
  const lower = String.fromCodePoint(cp).toLowerCase();
  return lower.length === String.fromCodePoint(lower.codePointAt(0)!).length ? lower.codePointAt(0)! : cp;
};

export class Backtracker {
  private readonly root: Matcher;
  private input!: BacktrackInput;

  constructor(
    ast: AreNode,
    private readonly alphabet: Alphabet,
    private readonly opts: { icase: boolean; nlStop: boolean; nlAnch: boolean },
    private readonly looks: Map<AreNode, number>,
  ) {
    // The atoms' sets join the alphabet, which the caller seals afterwards.
    const setIds = new Map<AreNode, number>();
    this.collectSets(ast, setIds);
    this.root = this.compile(ast, setIds);
  }

  private collectSets(node: AreNode, out: Map<AreNode, number>): void {
    switch (node.type) {
      case 'char':
      case 'any':
      case 'set':
        out.set(node, this.alphabet.add(atomIntervals(node, this.opts)));
        break;
      case 'group':
      case 'repeat':
        this.collectSets(node.body, out);
        break;
      case 'concat':
        for (const n of node.items) this.collectSets(n, out);
        break;
      case 'alt':
        for (const n of node.branches) this.collectSets(n, out);
        break;
      default:
        break;
    }
  }

  private tick(): void {
    if (--this.input.budget.left < 0) throw new BudgetExceededError();
  }

  private compile(node: AreNode, sets: Map<AreNode, number>): Matcher {
    switch (node.type) {
      case 'empty':
        return (pos, caps, k) => k(pos, caps);
      case 'char':
      case 'any':
      case 'set': {
        const id = sets.get(node)!;
        return (pos, caps, k) => {
          this.tick();
          const { cps } = this.input;
          return pos < cps.length && this.alphabet.sets[id]![this.alphabet.classOf(cps[pos]!)] === 1 && k(pos + 1, caps);
        };
      }
      case 'anchor': {
        const test = this.anchorTest(node.kind);
        return (pos, caps, k) => test(positionContext(this.input.cps, pos)) && k(pos, caps);
      }
      case 'look': {
        const bit = 1 << (LOOK_SHIFT + this.looks.get(node)!);
        const negate = node.negate;
        return (pos, caps, k) => ((this.input.lookBits![pos]! & bit) !== 0) !== negate && k(pos, caps);
      }
      case 'group': {
        const body = this.compile(node.body, sets);
        const index = node.capture;
        if (index === null) return body;
        return (pos, caps, k) =>
          body(pos, caps, (end, inner) => {
            const next = inner.slice();
            next[2 * index] = pos;
            next[2 * index + 1] = end;
            return k(end, next);
          });
      }
      case 'backref': {
        const index = node.index;
        return (pos, caps, k) => {
          this.tick();
          const from = caps[2 * index];
          const to = caps[2 * index + 1];
          if (from === undefined || to === undefined || from < 0) return false;
          const len = to - from;
          const { cps } = this.input;
          if (pos + len > cps.length) return false;
          for (let i = 0; i < len; i++) {
            const a = cps[from + i]!;
            const b = cps[pos + i]!;
            if (a !== b && !(this.opts.icase && fold(a) === fold(b))) return false;
          }
          return k(pos + len, caps);
        };
      }
      case 'concat': {
        const parts = node.items.map((n) => this.compile(n, sets));
        const chain = (i: number): Matcher => {
          if (i === parts.length) return (pos, caps, k) => k(pos, caps);
          const head = parts[i]!;
          const rest = chain(i + 1);
          return (pos, caps, k) => head(pos, caps, (p, c) => rest(p, c, k));
        };
        return chain(0);
      }
      case 'alt': {
        const branches = node.branches.map((n) => this.compile(n, sets));
        return (pos, caps, k) => {
          for (const b of branches) if (b(pos, caps, k)) return true;
          return false;
        };
      }
      case 'repeat': {
        const body = this.compile(node.body, sets);
        const { min, max } = node;
        const iterate = (count: number, pos: number, caps: readonly number[], k: Cont): boolean => {
          this.tick();
          // An iteration that matched nothing ends the loop once the minimum is reached.
          if (count < max && body(pos, caps, (p, c) => (p === pos && count >= min ? false : iterate(count + 1, p, c, k)))) return true;
          return count >= min && k(pos, caps);
        };
        return (pos, caps, k) => iterate(0, pos, caps, k);
      }
    }
  }

  private anchorTest(kind: string): (ctx: number) => boolean {
    const { nlAnch } = this.opts;
    switch (kind) {
      case 'bol':
        return (c) => (c & (nlAnch ? CTX_LINE_START : CTX_STR_START)) !== 0;
      case 'eol':
        return (c) => (c & (nlAnch ? CTX_LINE_END : CTX_STR_END)) !== 0;
      case 'strStart':
        return (c) => (c & CTX_STR_START) !== 0;
      case 'strEnd':
        return (c) => (c & CTX_STR_END) !== 0;
      case 'wordStart':
        return (c) => (c & (CTX_PREV_WORD | CTX_NEXT_WORD)) === CTX_NEXT_WORD;
      case 'wordEnd':
        return (c) => (c & (CTX_PREV_WORD | CTX_NEXT_WORD)) === CTX_PREV_WORD;
      case 'wordBoundary':
        return (c) => ((c & CTX_PREV_WORD) !== 0) !== ((c & CTX_NEXT_WORD) !== 0);
      default:
        return (c) => ((c & CTX_PREV_WORD) !== 0) === ((c & CTX_NEXT_WORD) !== 0);
    }
  }

  /** Whether the pattern matches somewhere in the subject. */
  test(input: BacktrackInput, groupCount: number): boolean {
    this.input = input;
    const caps: number[] = new Array<number>(2 * (groupCount + 1)).fill(-1);
    const n = input.cps.length;
    try {
      for (let start = 0; start <= n; start++) {
        if (this.root(start, caps, () => true)) return true;
      }
      return false;
    } catch (error) {
      // Deep recursion on a long subject: as much "too much work" as an exhausted budget.
      if (error instanceof RangeError) throw new BudgetExceededError();
      throw error;
    }
  }
}
