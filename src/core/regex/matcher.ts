import type { AreNode, ParsedAre } from './are-ast.js';
import { type Budget, buildAutomata, BudgetExceededError, type CompiledAutomata, LOOK_SHIFT, TooComplexError } from './automaton.js';
import { Backtracker } from './backtrack.js';
import { formatInteger } from '../thousands.js';

/**
 * `subject ~ pattern` for a parsed Postgres ARE, in time linear in the subject's length for
 * every pattern without back references, and within a fixed budget of steps for those with
 * them. Nothing here can run unbounded: a subject that would need more work than the budget is
 * answered with an error that says so.
 */
export type MatchOutcome = { matched: boolean } | { matched?: undefined; error: string };

export interface MatcherLimits {
  /** Most automaton states a pattern may compile to (bounded repetitions multiply out). */
  maxStates: number;
  /** Work units (automaton states visited while building DFA states, and characters) per subject. */
  workBudget: number;
  /** Steps of the backtracking search a pattern with back references may take per subject. */
  backtrackBudget: number;
}

export const DEFAULT_LIMITS: MatcherLimits = {
  maxStates: 50_000,
  workBudget: 20_000_000,
  backtrackBudget: 1_000_000,
};

export interface AreMatcher {
  test(subject: string): MatchOutcome;
  /** Automaton states, all automata together. */
  readonly states: number;
  /** Back references: decided by a bounded search, not an automaton. */
  readonly bounded: boolean;
}

export type CompileMatcherResult = { ok: true; matcher: AreMatcher } | { ok: false; reason: string };

function groupBody(node: AreNode, index: number): AreNode | undefined {
  switch (node.type) {
    case 'group':
      if (node.capture === index) return node.body;
      return groupBody(node.body, index);
    case 'look':
    case 'repeat':
      return groupBody(node.body, index);
    case 'concat':
      for (const n of node.items) {
        const found = groupBody(n, index);
        if (found) return found;
      }
      return undefined;
    case 'alt':
      for (const n of node.branches) {
        const found = groupBody(n, index);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The body with anchors and lookarounds dropped: it matches every string the body can capture. */
function withoutConstraints(node: AreNode): AreNode {
  switch (node.type) {
    case 'anchor':
    case 'look':
      return { type: 'empty' };
    case 'group':
      return { type: 'group', capture: null, body: withoutConstraints(node.body) };
    case 'repeat':
      return { ...node, body: withoutConstraints(node.body) };
    case 'concat':
      return { type: 'concat', items: node.items.map(withoutConstraints) };
    case 'alt':
      return { type: 'alt', branches: node.branches.map(withoutConstraints) };
    default:
      return node;
  }
}

function hasBackref(node: AreNode): boolean {
  switch (node.type) {
    case 'backref':
      return true;
    case 'group':
    case 'look':
    case 'repeat':
      return hasBackref(node.body);
    case 'concat':
      return node.items.some(hasBackref);
    case 'alt':
      return node.branches.some(hasBackref);
    default:
      return false;
  }
}

/** Code points of a string; a lone surrogate counts as one, as in a `u` regex. */
function codePoints(subject: string): Int32Array {
  const out = new Int32Array(subject.length);
  let n = 0;
  for (let i = 0; i < subject.length; i++) {
    const c = subject.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < subject.length) {
      const d = subject.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  return n === out.length ? out : out.slice(0, n);
}

let lastSubject = '';
let lastCodePoints: Int32Array = new Int32Array(0);

/** The subject's code points; a name is tested against many patterns in a row. */
function subjectCodePoints(subject: string): Int32Array {
  if (subject !== lastSubject) {
    lastCodePoints = codePoints(subject);
    lastSubject = subject;
  }
  return lastCodePoints;
}

/** UTF-16 code units, as a JavaScript regex without the `u` flag reads its subject. */
function codeUnits(subject: string): Int32Array {
  const out = new Int32Array(subject.length);
  for (let i = 0; i < subject.length; i++) out[i] = subject.charCodeAt(i);
  return out;
}

export interface MatcherOptions {
  /** Read subjects as UTF-16 code units (JavaScript without `u`), not code points (Postgres). */
  codeUnits?: boolean;
}

class Matcher implements AreMatcher {
  readonly states: number;
  readonly bounded: boolean;

  constructor(
    private readonly automata: CompiledAutomata,
    private readonly backtracker: Backtracker | undefined,
    private readonly groupCount: number,
    private readonly limits: MatcherLimits,
    private readonly units: boolean,
  ) {
    this.states = automata.main.size + automata.looks.reduce((sum, l) => sum + l.automaton.size, 0);
    this.bounded = backtracker !== undefined;
  }

  test(subject: string): MatchOutcome {
    const { looks, main } = this.automata;
    const cps = this.units ? codeUnits(subject) : subjectCodePoints(subject);
    const budget: Budget = { left: this.limits.workBudget };
    try {
      let lookBits: Int32Array | null = null;
      if (looks.length > 0) {
        const bits = new Int32Array(cps.length + 1);
        const record = new Uint8Array(cps.length + 1);
        for (const look of looks) {
          record.fill(0);
          look.automaton.run(cps, bits, { backwards: !look.behind, record }, budget);
          const bit = 1 << (LOOK_SHIFT + look.index);
          for (let p = 0; p <= cps.length; p++) if (record[p]) bits[p]! |= bit;
        }
        lookBits = bits;
      }
      // With back references `main` accepts a superset of the language: a "no" is final.
      const maybe = main.run(cps, lookBits, { backwards: false }, budget);
      if (!maybe || !this.backtracker) return { matched: maybe };
      const steps: Budget = { left: this.limits.backtrackBudget };
      return { matched: this.backtracker.test({ cps, lookBits, budget: steps }, this.groupCount) };
    } catch (error) {
      if (!(error instanceof BudgetExceededError)) throw error;
      return this.backtracker
        ? { error: `deciding it needs more than the ${formatInteger(this.limits.backtrackBudget)} steps a pattern with back references may take; it cannot be evaluated safely for this name` }
        : { error: `deciding it needs more than ${formatInteger(this.limits.workBudget)} units of work for this name` };
    }
  }
}

/** Compiles a parsed ARE; fails when it is too large to evaluate within the limits. */
export function compileMatcher(parsed: ParsedAre, limits: MatcherLimits = DEFAULT_LIMITS, matcherOptions: MatcherOptions = {}): CompileMatcherResult {
  const { ast, options } = parsed;
  try {
    const backrefs = hasBackref(ast);
    const automata = buildAutomata(ast, options, { maxStates: limits.maxStates }, backrefs ? (index) => withoutConstraints(groupBody(ast, index) ?? { type: 'empty' }) : undefined);
    const backtracker = backrefs ? new Backtracker(ast, automata.alphabet, options, automata.lookIndexes) : undefined;
    automata.alphabet.seal();
    return { ok: true, matcher: new Matcher(automata, backtracker, parsed.groupCount, limits, matcherOptions.codeUnits === true) };
  } catch (error) {
    if (error instanceof TooComplexError) {
      return { ok: false, reason: `it is too large to evaluate safely (${error.message}; its bounded repetitions multiply out)` };
    }
    // Groups nested thousands deep: building the automata recurses through them.
    if (error instanceof RangeError) return { ok: false, reason: 'it is nested too deeply to evaluate safely' };
    throw error;
  }
}
