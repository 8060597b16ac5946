import type { AreNode, ParsedAre } from './are-ast.js';

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
export interface Prefilter {
  /** Compare with ASCII letters folded to lower case: the pattern is case-insensitive. */
  icase: boolean;
  /** Every group must hold: the subject contains at least one literal of the group. */
  all: string[][];
}

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

/** An exact set as a group of literals; none when it holds the empty string (always satisfied). */
function asGroups(info: Info): string[][] {
  return info.exact !== null && !info.exact.includes('') ? [info.exact] : [];
}

function concat(a: Info, b: Info): Info {
  if (a.exact !== null && b.exact !== null && a.exact.length * b.exact.length <= MAX_SET) {
    return { exact: unique(a.exact.flatMap((x) => b.exact!.map((y) => x + y))), all: [...a.all, ...b.all] };
  }
  return { exact: null, all: [...a.all, ...asGroups(a), ...b.all, ...asGroups(b)] };
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
  const group = unique(union);
  return group.length <= MAX_SET ? { exact: null, all: [group] } : ANY;
}

function repeat(body: Info, min: number, max: number): Info {
  if (max === 0) return EMPTY;
  if (min === 0) {
    if (max === 1 && body.exact !== null && body.exact.length < MAX_SET) return { exact: unique(['', ...body.exact]), all: [] };
    return ANY;
  }
  if (min === max && body.exact !== null) {
    let out = body;
    for (let i = 1; i < min; i++) out = concat(out, body);
    return out;
  }
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
      if (node.negated) return ANY;
      const chars: string[] = [];
      for (const item of node.items) {
        if (item.kind === 'class') return ANY;
        const from = item.kind === 'char' ? item.cp : item.from;
        const to = item.kind === 'char' ? item.cp : item.to;
        if (to - from >= MAX_SET) return ANY;
        for (let cp = from; cp <= to; cp++) {
          const c = literal(cp, icase);
          if (c === null) return ANY;
          chars.push(c);
        }
      }
      const exact = unique(chars);
      return exact.length === 0 || exact.length > MAX_SET ? ANY : { exact, all: [] };
    }
    case 'group':
      return infoOf(node.body, icase);
    case 'concat':
      return node.items.reduce((acc: Info, item) => concat(acc, infoOf(item, icase)), EMPTY);
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

let lastSubject = '';
let lastFolded = '';

/** ASCII capitals to lower case, nothing else: the case variants the automata give ASCII letters. */
function foldAscii(subject: string): string {
  if (subject !== lastSubject) {
    lastSubject = subject;
    lastFolded = /[A-Z]/.test(subject) ? subject.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x20)) : subject;
  }
  return lastFolded;
}

/** False when the subject cannot match a pattern with this prefilter; true when it may. */
export function mayMatch(prefilter: Prefilter, subject: string): boolean {
  const text = prefilter.icase ? foldAscii(subject) : subject;
  return prefilter.all.every((group) => group.some((lit) => text.includes(lit)));
}
