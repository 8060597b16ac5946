import type { AreNode, ParsedAre, SetItem } from './are-ast.js';
import { ASCII_CLASS_RANGES } from './are-ast.js';
import type { AreFeatures } from './caveat.js';

export { type AreFeatures, subjectCaveat } from './caveat.js';

/**
 * JavaScript source and flags that accept exactly the strings the ARE accepts: shown to explain
 * how a pattern is read (matching itself uses the linear-time automata of automaton.ts, as a
 * backtracking engine such as V8's can take exponential time).
 *
 * Always compiled with `u` so that `.` and negated brackets consume whole code points, as
 * Postgres does on a UTF-8 database. `s` is set unless `.` must stop at newlines.
 */
export interface JsTranslation extends AreFeatures {
  source: string;
  flags: string;
}

export type TranslateResult = { ok: true; translation: JsTranslation } | { ok: false; reason: string };

// Word characters for the word constraints, spelt out so JS's own \b/\w rules never apply.
const W = '[0-9A-Za-z_]';

const SYNTAX = new Set('^$\\.*+?()[]{}|/'.split('').map((c) => c.codePointAt(0)!));
const CLASS_SPECIAL = new Set('\\]^-['.split('').map((c) => c.codePointAt(0)!));

function hex(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

function emitChar(cp: number, inClass: boolean): string {
  if (cp >= 0x20 && cp < 0x7f) {
    if (inClass ? CLASS_SPECIAL.has(cp) : SYNTAX.has(cp)) return `\\${String.fromCodePoint(cp)}`;
    return String.fromCodePoint(cp);
  }
  return hex(cp);
}

// Code points no UTF-8 subject can contain: such an atom never matches in Postgres.
const isUnmatchable = (cp: number): boolean => cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff);

interface State {
  usesClasses: boolean;
  hasNonAscii: boolean;
  hasBackrefs: boolean;
  negatedEscape: boolean;
  nlStop: boolean;
  nlAnch: boolean;
}

function emitSetItems(items: readonly SetItem[], st: State): string {
  let out = '';
  for (const item of items) {
    switch (item.kind) {
      case 'char':
        if (item.cp > 0x7f) st.hasNonAscii = true;
        if (!isUnmatchable(item.cp)) out += emitChar(item.cp, true);
        break;
      case 'range': {
        if (item.to > 0x7f) st.hasNonAscii = true;
        const to = Math.min(item.to, 0x10ffff);
        if (item.from <= to) out += `${emitChar(item.from, true)}-${emitChar(to, true)}`;
        break;
      }
      case 'class':
        st.usesClasses = true;
        for (const [a, b] of ASCII_CLASS_RANGES[item.name]) out += a === b ? emitChar(a, true) : `${emitChar(a, true)}-${emitChar(b, true)}`;
        break;
    }
  }
  return out;
}

function isSingleAtom(node: AreNode): boolean {
  return node.type === 'char' || node.type === 'any' || node.type === 'set' || node.type === 'group' || node.type === 'backref';
}

function emit(node: AreNode, st: State): string {
  switch (node.type) {
    case 'empty':
      return '';
    case 'char':
      if (node.cp > 0x7f) st.hasNonAscii = true;
      return isUnmatchable(node.cp) ? '[]' : emitChar(node.cp, false);
    case 'any':
      return st.nlStop ? '[^\\n]' : '.';
    case 'set': {
      if (node.negatedEscape && st.nlStop) st.negatedEscape = true;
      const body = emitSetItems(node.items, st);
      if (!node.negated) return `[${body}]`;
      // Newline-sensitive mode: a negated bracket never matches a newline.
      return `[^${body}${st.nlStop && !node.negatedEscape ? '\\n' : ''}]`;
    }
    case 'anchor':
      switch (node.kind) {
        case 'bol':
          // JS's multiline ^ would also break at \r, U+2028 and U+2029; Postgres only at \n.
          return st.nlAnch ? '(?<![^\\n])' : '^';
        case 'eol':
          return st.nlAnch ? '(?![^\\n])' : '$';
        case 'strStart':
          return '(?<![\\s\\S])';
        case 'strEnd':
          return '(?![\\s\\S])';
        case 'wordStart':
          st.usesClasses = true;
          return `(?<!${W})(?=${W})`;
        case 'wordEnd':
          st.usesClasses = true;
          return `(?<=${W})(?!${W})`;
        case 'wordBoundary':
          st.usesClasses = true;
          return `(?:(?<!${W})(?=${W})|(?<=${W})(?!${W}))`;
        case 'notWordBoundary':
          st.usesClasses = true;
          return `(?:(?<=${W})(?=${W})|(?<!${W})(?!${W}))`;
      }
      break;
    case 'group':
      return `${node.capture === null ? '(?:' : '('}${emit(node.body, st)})`;
    case 'look':
      return `(?${node.behind ? '<' : ''}${node.negate ? '!' : '='}${emit(node.body, st)})`;
    case 'backref':
      st.hasBackrefs = true;
      return `(?:\\${node.index})`;
    case 'concat':
      return node.items.map((n) => emit(n, st)).join('');
    case 'alt':
      return node.branches.map((n) => emit(n, st)).join('|');
    case 'repeat': {
      const inner = emit(node.body, st);
      const body = isSingleAtom(node.body) ? inner : `(?:${inner})`;
      const { min, max } = node;
      let q: string;
      if (min === 0 && max === Infinity) q = '*';
      else if (min === 1 && max === Infinity) q = '+';
      else if (min === 0 && max === 1) q = '?';
      else if (max === Infinity) q = `{${min},}`;
      else if (min === max) q = `{${min}}`;
      else q = `{${min},${max}}`;
      return `${body}${q}${node.greedy ? '' : '?'}`;
    }
  }
  throw new Error('unreachable');
}

/**
 * Back references are translated only when the referenced group takes part in every match
 * (not under a quantifier or alternation): there JS and Postgres agree. Elsewhere they differ
 * (a group that did not participate matches the empty string in JS but fails in Postgres).
 */
function unconditionalGroups(node: AreNode, conditional: boolean, out: Set<number>): void {
  switch (node.type) {
    case 'group':
      if (node.capture !== null && !conditional) out.add(node.capture);
      unconditionalGroups(node.body, conditional, out);
      break;
    case 'look':
      unconditionalGroups(node.body, true, out);
      break;
    case 'concat':
      for (const n of node.items) unconditionalGroups(n, conditional, out);
      break;
    case 'alt':
      for (const n of node.branches) unconditionalGroups(n, true, out);
      break;
    case 'repeat':
      unconditionalGroups(node.body, true, out);
      break;
    default:
      break;
  }
}

function collectBackrefs(node: AreNode, out: number[]): void {
  switch (node.type) {
    case 'backref':
      out.push(node.index);
      break;
    case 'group':
    case 'look':
      collectBackrefs(node.body, out);
      break;
    case 'repeat':
      collectBackrefs(node.body, out);
      break;
    case 'concat':
      for (const n of node.items) collectBackrefs(n, out);
      break;
    case 'alt':
      for (const n of node.branches) collectBackrefs(n, out);
      break;
    default:
      break;
  }
}

/**
 * Why the pattern's back references cannot be evaluated offline, or null. Only references to a
 * group that takes part in every match (not under a quantifier or alternation) are: elsewhere
 * engines differ on a group that did not participate, and Postgres' own choice is not documented.
 */
export function backrefProblem(parsed: ParsedAre): string | null {
  const refs: number[] = [];
  collectBackrefs(parsed.ast, refs);
  if (refs.length === 0) return null;
  const fixed = new Set<number>();
  unconditionalGroups(parsed.ast, false, fixed);
  const bad = refs.find((r) => !fixed.has(r));
  if (bad === undefined) return null;
  return `back reference \\${bad} to a group under a quantifier or alternation: Postgres and JavaScript treat groups that did not take part in the match differently`;
}

/** The features of a pattern that decide when a verdict is exact. */
export function areFeatures(parsed: ParsedAre): AreFeatures {
  const { usesClasses, hasNonAscii, hasBackrefs, negatedEscapeWithNewlineMode } = emitAll(parsed);
  return { usesClasses, hasNonAscii, hasBackrefs, negatedEscapeWithNewlineMode };
}

function emitAll(parsed: ParsedAre): AreFeatures & { source: string; flags: string } {
  const st: State = {
    usesClasses: false,
    hasNonAscii: false,
    hasBackrefs: false,
    negatedEscape: false,
    nlStop: parsed.options.nlStop,
    nlAnch: parsed.options.nlAnch,
  };
  const source = emit(parsed.ast, st) || '(?:)';
  const flags = `${parsed.options.icase ? 'i' : ''}${parsed.options.nlStop ? '' : 's'}u`;
  return { source, flags, usesClasses: st.usesClasses, hasNonAscii: st.hasNonAscii, hasBackrefs: st.hasBackrefs, negatedEscapeWithNewlineMode: st.negatedEscape };
}

export function translateAre(parsed: ParsedAre): TranslateResult {
  const problem = backrefProblem(parsed);
  if (problem !== null) return { ok: false, reason: problem };
  const translation = emitAll(parsed);
  try {
    new RegExp(translation.source, translation.flags);
  } catch (e) {
    return { ok: false, reason: `no JavaScript equivalent could be built (${(e as Error).message})` };
  }
  return { ok: true, translation };
}
