// The two light parts of the engine, imported themselves rather than through its index.ts: matching
// a known pattern at start must not load the parser and the automaton.
import { type AreFeatures, subjectCaveat } from '../regex/caveat.js';
import { foldAscii, type LiteralForm, literalMatch, mayMatch, type Prefilter } from '../regex/literal.js';

export type PatternTest =
  | { status: 'match' | 'no-match'; exact: true }
  /** The JS verdict is shown, but Postgres may decide differently for this subject. */
  | { status: 'match' | 'no-match'; exact: false; reason: string }
  | { status: 'error'; reason: string };

/**
 * What matching needs to know of a valid pattern to answer without compiling it
 * (regex/prefilter.ts): its literal form when it has one (the verdict is then a comparison of
 * strings), else its literal prefilter (which can answer "no match"), and the features that
 * decide whether a verdict is exact.
 */
export interface KnownPattern {
  literal?: LiteralForm;
  prefilter: Prefilter;
  features: AreFeatures;
}

// The table as the bundle carries it (scripts/build.mjs writes it in as LLMOBS_KNOWN_PATTERNS):
// JSON, `[pattern, bits, data]` per pattern. `data` is, for a literal form, its strings joined
// between SEP (they are ASCII, SEP is not), else the prefilter's groups. Small to read at start:
// no object per string, and a name is looked up in a pattern's strings with one `includes`.
type Entry = [pattern: string, bits: number, data: string | string[][]];

const ICASE = 1;
const START = 2;
const END = 4;
const LITERAL = 8;
const CLASSES = 16;
const NON_ASCII = 32;
const BACKREFS = 64;
const NEGATED_ESCAPE = 128;
// Not ASCII, so not in any literal; Latin-1, so the table stays a one-byte string.
const SEP = '\u00ff';

/** The table of `precomputePatterns` in the form the bundle carries. */
export function encodeKnownPatterns(table: Record<string, KnownPattern>): string {
  const entries: Entry[] = Object.entries(table).map(([pattern, k]) => {
    const entry = entryOf(pattern, k);
    if (entry === null) throw new Error(`a literal form holds U+00FF: ${pattern}`);
    return entry;
  });
  return JSON.stringify(entries);
}

/** A known pattern as the table holds it; null for a literal form that holds SEP. */
function entryOf(pattern: string, k: KnownPattern): Entry | null {
  const f = k.features;
  let bits = (k.prefilter.icase ? ICASE : 0) | (f.usesClasses ? CLASSES : 0) | (f.hasNonAscii ? NON_ASCII : 0) | (f.hasBackrefs ? BACKREFS : 0) | (f.negatedEscapeWithNewlineMode ? NEGATED_ESCAPE : 0);
  if (k.literal === undefined) return [pattern, bits, k.prefilter.all];
  if (k.literal.strings.some((s) => s.includes(SEP))) return null;
  bits |= LITERAL | (k.literal.start ? START : 0) | (k.literal.end ? END : 0);
  return [pattern, bits, `${SEP}${k.literal.strings.join(SEP)}${SEP}`];
}

/** Whether the pattern is one of those known ahead (the built-in catalogue's). */
export function isKnownPattern(pattern: string): boolean {
  return table().has(pattern);
}

/** A pattern known at run time (see `literalVerdict` in pattern.ts): its entry, or null. */
export type LearnedPattern = Entry | null;

/** The entry of a literal form found at run time; null when it cannot have one. */
export function learnedLiteral(pattern: string, k: KnownPattern): LearnedPattern {
  return k.literal === undefined ? null : entryOf(pattern, k);
}

// The bundle has the built-in catalogue's patterns written in at build time, as above; run from
// the sources, no pattern is known ahead and every one is compiled.
declare const LLMOBS_KNOWN_PATTERNS: string | undefined;
let known: Map<string, Entry> | undefined;

function table(): Map<string, Entry> {
  if (known === undefined) {
    const entries = typeof LLMOBS_KNOWN_PATTERNS === 'string' ? (JSON.parse(LLMOBS_KNOWN_PATTERNS) as Entry[]) : [];
    known = new Map();
    // Indexed: a for-of loop makes an iterator result per entry in code that runs once per process.
    for (let i = 0; i < entries.length; i++) known.set(entries[i]![0], entries[i]!);
  }
  return known;
}

/** Replaces the patterns known ahead (tests, to run with and without them). */
export function setKnownPatterns(patterns: Record<string, KnownPattern>): void {
  const entries = JSON.parse(encodeKnownPatterns(patterns)) as Entry[];
  known = new Map(entries.map((entry) => [entry[0], entry]));
}

// One features object per combination of bits, shared.
const featureSets: AreFeatures[] = [];
function featuresOf(bits: number): AreFeatures {
  const key = bits >> 4;
  return (featureSets[key] ??= {
    usesClasses: (bits & CLASSES) !== 0,
    hasNonAscii: (bits & NON_ASCII) !== 0,
    hasBackrefs: (bits & BACKREFS) !== 0,
    negatedEscapeWithNewlineMode: (bits & NEGATED_ESCAPE) !== 0,
  });
}

// What the literal forms anchored at both ends look for, per subject: the whole subject (ASCII
// folded for case-insensitive patterns) between separators; null when it holds SEP (then it is
// none of the strings, which are ASCII).
let keysFor: string | undefined;
let exactKey: string | null = null;
let foldedKey: string | null = null;

function wholeKey(subject: string, icase: boolean): string | null {
  if (keysFor !== subject) {
    keysFor = subject;
    exactKey = subject.includes(SEP) ? null : `${SEP}${subject}${SEP}`;
    const folded = foldAscii(subject);
    foldedKey = exactKey === null ? null : folded === subject ? exactKey : `${SEP}${folded}${SEP}`;
  }
  return icase ? foldedKey : exactKey;
}

function literalEntryMatch(bits: number, data: string, subject: string): boolean {
  const icase = (bits & ICASE) !== 0;
  if ((bits & START) !== 0 && (bits & END) !== 0) {
    const key = wholeKey(subject, icase);
    return key !== null && data.includes(key);
  }
  const form: LiteralForm = { icase, start: (bits & START) !== 0, end: (bits & END) !== 0, strings: data.slice(1, -1).split(SEP) };
  return literalMatch(form, subject);
}

/**
 * `subject ~ pattern` from the patterns known ahead, without compiling: undefined when the pattern
 * is not known, or when its prefilter cannot rule the subject out (it must then be compiled).
 * The answer is the same as the compiled pattern's; only the work differs.
 */
export function knownVerdict(pattern: string, subject: string): PatternTest | undefined {
  const entry = table().get(pattern);
  return entry === undefined ? undefined : entryVerdict(entry, subject);
}

/** `knownVerdict` for an entry in hand (one of the table's, or one learned at run time). */
export function entryVerdict(entry: Entry, subject: string): PatternTest | undefined {
  // Read by index: destructuring an array runs its iterator, objects made per call, for each of
  // the catalogue's patterns that a name is checked against.
  const bits = entry[1];
  const data = entry[2];
  const icase = (bits & ICASE) !== 0;
  let matched: boolean;
  if ((bits & LITERAL) !== 0) matched = literalEntryMatch(bits, data as string, subject);
  else if (mayMatch({ icase, all: data as string[][] }, subject)) return undefined;
  else matched = false;
  const caveat = subjectCaveat(featuresOf(bits), icase, subject);
  if (caveat === null) return matched ? EXACT_MATCH : EXACT_NO_MATCH;
  return { status: matched ? 'match' : 'no-match', exact: false, reason: caveat };
}

// The exact verdicts, one object each for every pattern and name (read only).
const EXACT_MATCH: PatternTest = Object.freeze({ status: 'match', exact: true });
const EXACT_NO_MATCH: PatternTest = Object.freeze({ status: 'no-match', exact: true });
