import type { AreNode, ParsedAre, SetItem } from './are-ast.js';
import { ASCII_CLASS_RANGES } from './are-ast.js';

/**
 * Strings derived from a parsed ARE, used to reason about which names a pattern matches:
 * `enumerateLanguage` lists every string of a fully anchored pattern with a finite language
 * (a proof is possible then); `sampleStrings` gives a few representative candidates for any
 * pattern (callers must still test them: anchors and lookarounds are ignored here).
 */

const lower = (cp: number): number => (cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp);

function setMembers(items: readonly SetItem[], limit: number): number[] | null {
  const out: number[] = [];
  for (const item of items) {
    if (item.kind === 'class') return null; // non-ASCII members depend on the locale
    const [from, to] = item.kind === 'char' ? [item.cp, item.cp] : [item.from, item.to];
    if (to - from + 1 + out.length > limit) return null;
    for (let c = from; c <= to; c++) out.push(c);
  }
  return out;
}

function product(a: readonly string[], b: readonly string[], limit: number): string[] | null {
  if (a.length * b.length > limit) return null;
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return out;
}

const dedupe = (xs: readonly string[]): string[] => [...new Set(xs)];

function lang(node: AreNode, icase: boolean, limit: number): string[] | null {
  switch (node.type) {
    case 'empty':
      return [''];
    case 'char':
      if (node.cp > 0x7f && icase) return null;
      return [String.fromCodePoint(icase ? lower(node.cp) : node.cp)];
    case 'set': {
      if (node.negated) return null;
      const members = setMembers(node.items, 256);
      if (members === null || (icase && members.some((c) => c > 0x7f))) return null;
      return dedupe(members.map((c) => String.fromCodePoint(icase ? lower(c) : c)));
    }
    case 'group':
      return lang(node.body, icase, limit);
    case 'concat': {
      let acc: string[] | null = [''];
      for (const item of node.items) {
        const l = lang(item, icase, limit);
        if (l === null) return null;
        acc = product(acc, l, limit);
        if (acc === null) return null;
      }
      return dedupe(acc);
    }
    case 'alt': {
      const out: string[] = [];
      for (const b of node.branches) {
        const l = lang(b, icase, limit);
        if (l === null) return null;
        out.push(...l);
        if (out.length > limit) return null;
      }
      return dedupe(out);
    }
    case 'repeat': {
      if (node.max === Infinity) return null;
      const body = lang(node.body, icase, limit);
      if (body === null) return null;
      const out: string[] = [];
      let acc: string[] | null = [''];
      for (let k = 0; k <= node.max; k++) {
        if (k >= node.min) out.push(...acc);
        if (out.length > limit) return null;
        if (k < node.max) {
          acc = product(acc, body, limit);
          if (acc === null) return null;
        }
      }
      return dedupe(out);
    }
    default:
      // any, anchors inside the body, lookarounds, back references: not a plain finite language.
      return null;
  }
}

const isStartAnchor = (n: AreNode): boolean => n.type === 'anchor' && (n.kind === 'bol' || n.kind === 'strStart');
const isEndAnchor = (n: AreNode): boolean => n.type === 'anchor' && (n.kind === 'eol' || n.kind === 'strEnd');

function anchoredBranches(node: AreNode): AreNode[] | null {
  if (node.type === 'group') return anchoredBranches(node.body);
  const branches = node.type === 'alt' ? node.branches : [node];
  const middles: AreNode[] = [];
  for (const b of branches) {
    const items = b.type === 'concat' ? b.items : [b];
    let s = 0;
    let e = items.length;
    while (s < e && isStartAnchor(items[s]!)) s++;
    while (e > s && isEndAnchor(items[e - 1]!)) e--;
    if (s === 0 || e === items.length) return null;
    middles.push({ type: 'concat', items: items.slice(s, e) });
  }
  return middles;
}

export type Enumeration =
  /** Every string the pattern matches; lower-cased when the pattern is case-insensitive. */
  | { finite: true; strings: string[]; caseInsensitive: boolean }
  | { finite: false; reason: string };

export function enumerateLanguage(parsed: ParsedAre, limit = 2000): Enumeration {
  if (parsed.options.nlAnch) return { finite: false, reason: 'newline-sensitive anchors' };
  const middles = anchoredBranches(parsed.ast);
  if (middles === null) return { finite: false, reason: 'not anchored with ^...$ on every alternative' };
  const out: string[] = [];
  for (const m of middles) {
    const l = lang(m, parsed.options.icase, limit);
    if (l === null) return { finite: false, reason: 'matches unboundedly many (or too many) names' };
    out.push(...l);
    if (out.length > limit) return { finite: false, reason: 'matches too many names to list' };
  }
  return { finite: true, strings: dedupe(out), caseInsensitive: parsed.options.icase };
}

const NEGATED_CANDIDATES = ['x', 'a', '0', '-', '_', '.', '/', ' ', ':', '@'].map((c) => c.codePointAt(0)!);

function setContains(items: readonly SetItem[], cp: number, icase: boolean): boolean {
  const variants = icase ? [cp, lower(cp), cp >= 0x61 && cp <= 0x7a ? cp - 0x20 : cp] : [cp];
  return items.some((item) =>
    variants.some((v) => {
      if (item.kind === 'char') return item.cp === v;
      if (item.kind === 'range') return v >= item.from && v <= item.to;
      return ASCII_CLASS_RANGES[item.name].some(([a, b]) => v >= a && v <= b);
    }),
  );
}

function sample(node: AreNode, icase: boolean, cap: number): string[] {
  switch (node.type) {
    case 'char':
      return [String.fromCodePoint(node.cp)];
    case 'any':
      return ['x'];
    case 'set': {
      if (node.negated) {
        const c = NEGATED_CANDIDATES.find((x) => !setContains(node.items, x, icase));
        return c === undefined ? [] : [String.fromCodePoint(c)];
      }
      const firsts = node.items.map((item) =>
        item.kind === 'char' ? item.cp : item.kind === 'range' ? item.from : ASCII_CLASS_RANGES[item.name][0]![0],
      );
      return dedupe(firsts.slice(0, 2).map((c) => String.fromCodePoint(c)));
    }
    case 'group':
      return sample(node.body, icase, cap);
    case 'concat': {
      let acc = [''];
      for (const item of node.items) {
        const s = sample(item, icase, cap);
        if (s.length === 0) return [];
        const next: string[] = [];
        for (const a of acc) for (const b of s) if (next.length < cap) next.push(a + b);
        acc = next;
      }
      return acc;
    }
    case 'alt':
      return dedupe(node.branches.flatMap((b) => sample(b, icase, cap))).slice(0, cap);
    case 'repeat': {
      const body = sample(node.body, icase, cap);
      const counts = dedupe([String(node.min), String(Math.min(node.min + 1, node.max))]).map(Number);
      const out: string[] = [];
      for (const k of counts) for (const b of body.length > 0 ? body : ['']) out.push(b.repeat(k));
      return dedupe(out).slice(0, cap);
    }
    default:
      return [''];
  }
}

/** A few strings the pattern probably matches, in their written case and upper-cased when case-insensitive. */
export function sampleStrings(parsed: ParsedAre, cap = 64): string[] {
  const base = sample(parsed.ast, parsed.options.icase, cap);
  const withCase = parsed.options.icase ? base.flatMap((s) => [s, s.toUpperCase()]) : base;
  return dedupe(withCase).slice(0, cap * 2);
}
