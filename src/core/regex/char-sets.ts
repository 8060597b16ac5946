import type { AreNode, SetItem } from './are-ast.js';
import { ASCII_CLASS_RANGES } from './are-ast.js';

/**
 * Sets of code points as sorted, disjoint, inclusive intervals `[a0, b0, a1, b1, ...]`, and the
 * alphabet partition an automaton runs on: the code points split into classes that no set of the
 * pattern tells apart, so a transition is looked up per class, not per code point.
 */
export type Intervals = number[];

export const MAX_CP = 0x10ffff;
const NEWLINE = 0x0a;

export function normalise(raw: Array<readonly [number, number]>): Intervals {
  const sorted = raw.filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: Intervals = [];
  for (const [a, b] of sorted) {
    const last = out.length - 1;
    if (last > 0 && a <= out[last]! + 1) out[last] = Math.max(out[last]!, b);
    else out.push(a, b);
  }
  return out;
}

export function complement(set: Intervals): Intervals {
  const out: Intervals = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return out;
}

function without(set: Intervals, cp: number): Intervals {
  return normalise(pairs(set).flatMap(([a, b]) => (cp < a || cp > b ? [[a, b] as const] : [[a, cp - 1] as const, [cp + 1, b] as const])));
}

function pairs(set: Intervals): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  for (let i = 0; i < set.length; i += 2) out.push([set[i]!, set[i + 1]!]);
  return out;
}

// Code points no UTF-8 subject can contain: as an atom of their own they never match in Postgres.
const isUnmatchable = (cp: number): boolean => cp > MAX_CP || (cp >= 0xd800 && cp <= 0xdfff);

/** The other cases of one code point, as a UTF-8 Postgres database's towupper/towlower give them. */
export function caseVariants(cp: number): number[] {
  if (cp < 0x80) {
    if (cp >= 0x41 && cp <= 0x5a) return [cp + 0x20];
    if (cp >= 0x61 && cp <= 0x7a) return [cp - 0x20];
    return [];
  }
  const out: number[] = [];
  const s = String.fromCodePoint(cp);
  for (const v of [s.toLowerCase(), s.toUpperCase()]) {
    const c = v.codePointAt(0)!;
    // Only one-to-one mappings: Postgres maps a character to a character.
    if (v.length === String.fromCodePoint(c).length && c !== cp && !out.includes(c)) out.push(c);
  }
  return out;
}

// Case variants are added one code point at a time; a wider range of non-ASCII characters keeps
// only its ASCII letters' variants (such subjects are reported as locale-dependent anyway).
const CASE_RANGE_LIMIT = 20_000;

function withCaseVariants(set: Intervals): Intervals {
  const extra: Array<readonly [number, number]> = [];
  for (const [a, b] of pairs(set)) {
    const wide = b - a > CASE_RANGE_LIMIT;
    for (let cp = a; cp <= b; cp++) {
      if (wide && cp >= 0x80) break;
      for (const v of caseVariants(cp)) extra.push([v, v]);
    }
  }
  return normalise([...pairs(set), ...extra]);
}

function itemIntervals(item: SetItem): ReadonlyArray<readonly [number, number]> {
  switch (item.kind) {
    case 'char':
      return isUnmatchable(item.cp) ? [] : [[item.cp, item.cp]];
    case 'range':
      return [[item.from, Math.min(item.to, MAX_CP)]];
    case 'class':
      return ASCII_CLASS_RANGES[item.name];
  }
}

export interface SetOptions {
  icase: boolean;
  nlStop: boolean;
}

// Patterns repeat the same letters and classes: each atom's set is worked out once.
const ATOM_CACHE_LIMIT = 10_000;
const atomCache = new Map<string, Intervals>();

function atomKey(node: AreNode, opts: SetOptions): string {
  const flags = `${opts.icase ? 'i' : ''}${opts.nlStop ? 'n' : ''}`;
  switch (node.type) {
    case 'char':
      return `c${node.cp}${flags}`;
    case 'any':
      return `a${flags}`;
    case 'set':
      return `s${node.negated ? '^' : ''}${node.negatedEscape ? 'e' : ''}${flags}${node.items.map((i) => (i.kind === 'char' ? i.cp : i.kind === 'range' ? `${i.from}-${i.to}` : i.name)).join(',')}`;
    default:
      return '';
  }
}

/** The code points one atom (`char`, `any` or `set`) matches (callers must not modify it). */
export function atomIntervals(node: AreNode, opts: SetOptions): Intervals {
  const key = atomKey(node, opts);
  let set = atomCache.get(key);
  if (set === undefined) {
    set = computeAtomIntervals(node, opts);
    if (atomCache.size >= ATOM_CACHE_LIMIT) atomCache.clear();
    atomCache.set(key, set);
  }
  return set;
}

function computeAtomIntervals(node: AreNode, opts: SetOptions): Intervals {
  switch (node.type) {
    case 'char': {
      if (isUnmatchable(node.cp)) return [];
      const set = [node.cp, node.cp];
      return opts.icase ? withCaseVariants(set) : set;
    }
    case 'any':
      return opts.nlStop ? without([0, MAX_CP], NEWLINE) : [0, MAX_CP];
    case 'set': {
      let set = normalise(node.items.flatMap(itemIntervals));
      if (opts.icase) set = withCaseVariants(set);
      if (!node.negated) return set;
      const negated = complement(set);
      // Newline-sensitive mode: a negated bracket never matches a newline (\D \S \W: undocumented, kept).
      return opts.nlStop && !node.negatedEscape ? without(negated, NEWLINE) : negated;
    }
    default:
      throw new Error(`not an atom: ${node.type}`);
  }
}

/**
 * The partition of all code points into classes, and each set as a membership table over them.
 * ASCII is looked up directly; other code points by binary search over the class boundaries.
 */
export class Alphabet {
  readonly sets: Uint8Array[] = [];
  private readonly raw: Intervals[] = [];
  private readonly ids = new Map<Intervals, number>();
  private boundaries: Int32Array = new Int32Array(0);
  private ascii = new Uint16Array(128);
  classCount = 1;

  /** Registers a set; its membership table is filled in by `seal()`. */
  add(set: Intervals): number {
    let id = this.ids.get(set);
    if (id === undefined) {
      id = this.raw.length;
      this.raw.push(set);
      this.ids.set(set, id);
    }
    return id;
  }

  seal(): void {
    const cuts = new Set<number>([0]);
    for (const set of this.raw) {
      for (let i = 0; i < set.length; i += 2) {
        cuts.add(set[i]!);
        if (set[i + 1]! < MAX_CP) cuts.add(set[i + 1]! + 1);
      }
    }
    this.boundaries = Int32Array.from([...cuts].sort((a, b) => a - b));
    this.classCount = this.boundaries.length;
    for (let cp = 0; cp < 128; cp++) this.ascii[cp] = this.search(cp);
    for (const set of this.raw) {
      const member = new Uint8Array(this.classCount);
      for (let i = 0; i < set.length; i += 2) {
        for (let k = this.search(set[i]!); k < this.classCount && this.boundaries[k]! <= set[i + 1]!; k++) member[k] = 1;
      }
      this.sets.push(member);
    }
  }

  classOf(cp: number): number {
    return cp < 128 ? this.ascii[cp]! : this.search(cp);
  }

  private search(cp: number): number {
    const b = this.boundaries;
    let lo = 0;
    let hi = b.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (b[mid]! <= cp) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
