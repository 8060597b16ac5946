import type { AreNode, ParsedAre } from './are-ast.js';
import type { LiteralForm, Prefilter } from './literal.js';

export { type LiteralForm, literalMatch, mayMatch, type Prefilter } from './literal.js';

/**
 * Literal prefilters: strings that every match of a pattern must contain, read from its parsed
 * form. A subject that lacks them cannot match, which is known without building the pattern's
 * automata; the catalogue's prefilters are computed at build time, so that matching a name
 * compiles only the few patterns that could match it.
 *
 * A prefilter is a necessary condition, never a sufficient one: `mayMatch` false proves that
 * `subject ~ pattern` is false, `mayMatch` true proves nothing. Only ASCII characters become
 * literals; anything else (non-ASCII characters, classes, `.`, back references) is "any string".
 * Anchors and lookaround constraints consume nothing and add no literal.
 */

/** Most strings an exact set (or a group) may hold before it is given up. */
const MAX_SET = 16;
/** Most groups a prefilter keeps (the most selective ones). */
const MAX_GROUPS = 4;

/**
 * What is known of the strings a node matches: `exact`, all of them when they are few (null:
 * too many or unknown), and `all`, groups that each of them satisfies.
 */
interface Info {
  exact: string[] | null;
  all: string[][];
}

const ANY: Info = { exact: null, all: [] };
const EMPTY: Info = { exact: [''], all: [] };

/** The literal of one code point, or null when it is not ASCII. */
function literal(cp: number, icase: boolean): string | null {
  if (cp > 0x7f) return null;
  return icase && cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 0x20) : String.fromCharCode(cp);
}

const unique = (xs: string[]): string[] => [...new Set(xs)];

/**
 * The literals of a bracket expression's members, or null when one is not a literal (a class, a
 * character that is not ASCII), the set is negated, or a range spans `max` code points or more.
 */
function setLiterals(node: Extract<AreNode, { type: 'set' }>, icase: boolean, max: number): string[] | null {
  if (node.negated) return null;
  const chars: string[] = [];
  for (const item of node.items) {
    if (item.kind === 'class') return null;
    const from = item.kind === 'char' ? item.cp : item.from;
    const to = item.kind === 'char' ? item.cp : item.to;
    if (to - from >= max) return null;
    for (let cp = from; cp <= to; cp++) {
      const c = literal(cp, icase);
      if (c === null) return null;
      chars.push(c);
    }
  }
  return chars;
}

/** An exact set as a group of literals; none when it holds the empty string (always satisfied). */
function asGroups(info: Info): string[][] {
  return info.exact !== null && !info.exact.includes('') ? [info.exact] : [];
}

/**
 * A concatenation: consecutive items whose strings are known run together (`gpt-4` then `o`
 * gives `gpt-4o`); a run ends at an item that can be any string (`.`, a class), and each run
 * is a group of its own.
 */
function concatenation(items: Info[]): Info {
  const all: string[][] = [];
  let run: string[] = [''];
  let whole = true;
  for (const item of items) {
    all.push(...item.all);
    if (item.exact !== null && run.length * item.exact.length <= MAX_SET) {
      run = unique(run.flatMap((x) => item.exact!.map((y) => x + y)));
      continue;
    }
    whole = false;
    all.push(...asGroups({ exact: run, all: [] }));
    run = item.exact ?? [''];
  }
  if (whole) return { exact: run, all };
  return { exact: null, all: [...all, ...asGroups({ exact: run, all: [] })] };
}

/** How selective a group is: the length of its shortest literal. */
const strength = (group: string[]): number => Math.min(...group.map((s) => s.length));

function alternation(branches: Info[]): Info {
  if (branches.every((b) => b.exact !== null)) {
    const union = unique(branches.flatMap((b) => b.exact!));
    if (union.length <= MAX_SET) return { exact: union, all: [] };
  }
  // Each string of the alternation satisfies the groups of its own branch: the union of one group
  // per branch holds for all of them.
  const union: string[] = [];
  for (const branch of branches) {
    const groups = [...branch.all, ...asGroups(branch)];
    if (groups.length === 0) return ANY;
    const best = groups.reduce((x, y) => (strength(y) > strength(x) || (strength(y) === strength(x) && y.length < x.length) ? y : x));
    union.push(...best);
  }
  const group = shrink(unique(union));
  return group === null ? ANY : { exact: null, all: [group] };
}

/**
 * A group of at most MAX_SET literals that every string of `group` satisfies: the group itself,
 * or the longest substring they all share (each string contains it), or none.
 */
function shrink(group: string[]): string[] | null {
  if (group.length <= MAX_SET) return group;
  const common = longestCommonSubstring(group);
  return common === '' ? null : [common];
}

function longestCommonSubstring(strings: string[]): string {
  const shortest = strings.reduce((a, b) => (b.length < a.length ? b : a));
  for (let length = shortest.length; length > 0; length--) {
    for (let start = 0; start + length <= shortest.length; start++) {
      const candidate = shortest.slice(start, start + length);
      if (strings.every((s) => s.includes(candidate))) return candidate;
    }
  }
  return '';
}

function repeat(body: Info, min: number, max: number): Info {
  if (max === 0) return EMPTY;
  if (min === 0) {
    if (max === 1 && body.exact !== null && body.exact.length < MAX_SET) return { exact: unique(['', ...body.exact]), all: [] };
    return ANY;
  }
  if (min === max && body.exact !== null) return concatenation(Array.from({ length: min }, () => body));
  // At least one copy of the body.
  return { exact: null, all: [...body.all, ...asGroups(body)] };
}

function infoOf(node: AreNode, icase: boolean): Info {
  switch (node.type) {
    case 'empty':
    case 'anchor':
    case 'look':
      return EMPTY;
    case 'any':
    case 'backref':
      return ANY;
    case 'char': {
      const c = literal(node.cp, icase);
      return c === null ? ANY : { exact: [c], all: [] };
    }
    case 'set': {
      const chars = setLiterals(node, icase, MAX_SET);
      if (chars === null) return ANY;
      const exact = unique(chars);
      return exact.length === 0 || exact.length > MAX_SET ? ANY : { exact, all: [] };
    }
    case 'group':
      return infoOf(node.body, icase);
    case 'concat':
      return concatenation(node.items.map((item) => infoOf(item, icase)));
    case 'alt':
      return alternation(node.branches.map((b) => infoOf(b, icase)));
    case 'repeat':
      return repeat(infoOf(node.body, icase), node.min, node.max);
  }
}

/** The prefilter of a parsed pattern: at most a few groups, the most selective ones. */
export function prefilterOf(parsed: ParsedAre): Prefilter {
  const icase = parsed.options.icase;
  const info = infoOf(parsed.ast, icase);
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const group of [...asGroups(info), ...info.all]) {
    const sorted = unique(group).sort();
    const key = JSON.stringify(sorted);
    if (!seen.has(key)) {
      seen.add(key);
      groups.push(sorted);
    }
  }
  groups.sort((a, b) => strength(b) - strength(a) || a.length - b.length);
  return { icase, all: groups.slice(0, MAX_GROUPS) };
}

/** Most strings a literal form may hold. */
const MAX_STRINGS = 256;

/** Every string a node matches, when they are few and all ASCII; null otherwise. */
function language(node: AreNode, icase: boolean): string[] | null {
  switch (node.type) {
    case 'empty':
      return [''];
    case 'char': {
      const c = literal(node.cp, icase);
      return c === null ? null : [c];
    }
    case 'set': {
      const chars = setLiterals(node, icase, MAX_STRINGS);
      return chars === null || chars.length === 0 ? null : unique(chars);
    }
    case 'group':
      return language(node.body, icase);
    case 'concat': {
      let out: string[] | null = [''];
      for (const item of node.items) {
        const next = language(item, icase);
        if (next === null) return null;
        out = product(out, next);
        if (out === null) return null;
      }
      return out;
    }
    case 'alt': {
      const out: string[] = [];
      for (const branch of node.branches) {
        const strings = language(branch, icase);
        if (strings === null) return null;
        out.push(...strings);
      }
      const all = unique(out);
      return all.length <= MAX_STRINGS ? all : null;
    }
    case 'repeat': {
      if (node.max === Infinity) return null;
      const body = language(node.body, icase);
      if (body === null) return null;
      const out: string[] = [];
      let power: string[] | null = [''];
      for (let k = 0; k <= node.max; k++) {
        if (k >= node.min) out.push(...power);
        if (out.length > MAX_STRINGS) return null;
        if (k < node.max) power = product(power, body);
        if (power === null) return null;
      }
      return unique(out);
    }
    default:
      // `.`, anchors and lookarounds inside the pattern, back references.
      return null;
  }
}

function product(a: string[], b: string[]): string[] | null {
  if (a.length * b.length > MAX_STRINGS * 4) return null;
  const out = unique(a.flatMap((x) => b.map((y) => x + y)));
  return out.length <= MAX_STRINGS ? out : null;
}

/** The literal form of a parsed pattern, or null when it has none. */
export function literalFormOf(parsed: ParsedAre): LiteralForm | null {
  const { ast, options } = parsed;
  const items = ast.type === 'concat' ? [...ast.items] : [ast];
  const isStart = (n: AreNode) => n.type === 'anchor' && (n.kind === 'strStart' || (n.kind === 'bol' && !options.nlAnch));
  const isEnd = (n: AreNode) => n.type === 'anchor' && (n.kind === 'strEnd' || (n.kind === 'eol' && !options.nlAnch));
  let start = false;
  let end = false;
  while (items.length > 0 && isStart(items[0]!)) {
    items.shift();
    start = true;
  }
  while (items.length > 0 && isEnd(items[items.length - 1]!)) {
    items.pop();
    end = true;
  }
  const strings = language({ type: 'concat', items }, options.icase);
  return strings === null ? null : { icase: options.icase, start, end, strings };
}

