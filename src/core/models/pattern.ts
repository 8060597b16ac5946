import {
  type AreFeatures,
  type AreMatcher,
  areFeatures,
  backrefProblem,
  compileMatcher,
  DEFAULT_LIMITS,
  literalFormOf,
  type ParsedAre,
  parseAre,
  parseJsRegex,
  prefilterOf,
  subjectCaveat,
  translateAre,
} from '../regex/index.js';
import { type PatternEngine, registerPatternEngine } from './engine-slot.js';
import { entryVerdict, isKnownPattern, type KnownPattern, type LearnedPattern, learnedLiteral, knownVerdict, type PatternTest } from './known-patterns.js';

export { type KnownPattern, type PatternTest, setKnownPatterns } from './known-patterns.js';

/**
 * A `matchPattern` compiled to behave like Postgres' `model ~ match_pattern`:
 * unanchored search, case-sensitive unless the pattern opens with embedded options such as `(?i)`.
 * Matching runs on linear-time automata (see regex/matcher.ts), never on a backtracking engine:
 * a definition anyone in the project can write must not be able to stall the CLI or the server.
 */
export type CompiledPattern =
  | {
      status: 'ok';
      pattern: string;
      matcher: AreMatcher;
      parsed: ParsedAre;
      features: AreFeatures;
    }
  /** Postgres rejects the pattern (POST /models answers 400). */
  | { status: 'invalid'; pattern: string; reason: string }
  /** Valid or not, its behaviour cannot be reproduced offline; `reason` says why. */
  | { status: 'unsupported'; pattern: string; reason: string };

const CACHE_LIMIT = 5000;
const cache = new Map<string, CompiledPattern>();

/** Patterns compiled in this process so far (--verbose says how many matching needed). */
export function compiledPatternCount(): number {
  return cache.size;
}

export function compilePattern(pattern: string): CompiledPattern {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const compiled = compileUncached(pattern);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

function compileUncached(pattern: string): CompiledPattern {
  const parsed = parseAre(pattern);
  if (!parsed.ok) {
    return parsed.kind === 'invalid'
      ? { status: 'invalid', pattern, reason: parsed.reason }
      : { status: 'unsupported', pattern, reason: `uses ${parsed.reason}` };
  }
  const problem = backrefProblem(parsed.parsed);
  if (problem !== null) return { status: 'unsupported', pattern, reason: problem };
  const compiled = compileMatcher(parsed.parsed);
  if (!compiled.ok) return { status: 'unsupported', pattern, reason: compiled.reason };
  return { status: 'ok', pattern, matcher: compiled.matcher, parsed: parsed.parsed, features: areFeatures(parsed.parsed) };
}

/** The known patterns of a list (the invalid and unsupported ones are left out), for the build. */
export function precomputePatterns(patterns: Iterable<string>): Record<string, KnownPattern> {
  const out: Record<string, KnownPattern> = {};
  for (const pattern of patterns) {
    const c = compilePattern(pattern);
    if (c.status !== 'ok') continue;
    const literal = literalFormOf(c.parsed);
    out[pattern] = literal === null ? { prefilter: prefilterOf(c.parsed), features: c.features } : { literal, prefilter: { icase: literal.icase, all: [] }, features: c.features };
  }
  return out;
}

/**
 * The longest pattern answered from its literal form without being compiled (`literalVerdict`).
 * Without bounded repetitions, a pattern's automaton grows with its length, and one this short
 * stays far inside the matcher's limits: compiling it could not fail, so its literal form gives
 * the compiled pattern's answer.
 */
const LITERAL_PATTERN_MAX = 1000;
const learned = new Map<string, LearnedPattern>();

// `(?i)^(name)$` (the form Langfuse suggests for a new model), `^name$` and the like, with a name
// of ASCII letters, digits, `-`, `_`, `/`, `:`, `@` and `\.`: characters an ARE takes as
// themselves. Their literal form is read off the text, without parsing.
const PLAIN_LITERAL = /^(\(\?i\))?\^(?:\(((?:[\w\-/:@]|\\\.)+)\)|((?:[\w\-/:@]|\\\.)+))\$$/;
const NO_FEATURES: AreFeatures = Object.freeze({ usesClasses: false, hasNonAscii: false, hasBackrefs: false, negatedEscapeWithNewlineMode: false });

/** The literal form of a pattern of that plain shape (what parsing it would give), or undefined. */
export function plainLiteral(pattern: string): KnownPattern | undefined {
  const shape = PLAIN_LITERAL.exec(pattern);
  if (shape === null) return undefined;
  const icase = shape[1] !== undefined;
  const text = (shape[2] ?? shape[3])!.replaceAll('\\.', '.');
  return { literal: { icase, start: true, end: true, strings: [icase ? text.toLowerCase() : text] }, prefilter: { icase, all: [] }, features: NO_FEATURES };
}

/**
 * `subject ~ pattern` for a pattern not known ahead whose literal form decides it (a project's
 * own definitions are mostly Langfuse's `(?i)^(name)$`): the pattern is parsed once and then
 * answered by comparing strings, as the catalogue's are. Without it, matching a new name against
 * more definitions than the compiled patterns' cache holds would compile them all again.
 * Undefined when the pattern has no such form, is long, or has a bounded repetition.
 */
function literalVerdict(pattern: string, subject: string): PatternTest | undefined {
  let entry = learned.get(pattern);
  if (entry === undefined) {
    entry = null;
    // A pattern known ahead has had its literal form looked for already.
    if (pattern.length <= LITERAL_PATTERN_MAX && !pattern.includes('{') && !isKnownPattern(pattern)) {
      const plain = plainLiteral(pattern);
      if (plain !== undefined) entry = learnedLiteral(pattern, plain);
      else {
        const parsed = parseAre(pattern);
        const literal = parsed.ok ? literalFormOf(parsed.parsed) : null;
        if (parsed.ok && literal !== null) entry = learnedLiteral(pattern, { literal, prefilter: { icase: literal.icase, all: [] }, features: areFeatures(parsed.parsed) });
      }
    }
    if (learned.size >= CACHE_LIMIT * 10) learned.clear();
    learned.set(pattern, entry);
  }
  return entry === null ? undefined : entryVerdict(entry, subject);
}

/**
 * Evaluates `subject ~ pattern`. The subject is used exactly as given: no trimming, no case change.
 * A pattern given as text whose prefilter is known and rules the subject out, or whose literal
 * form decides it, is answered without being compiled (the answer is the same; only the work
 * differs).
 */
export function testPattern(pattern: string | CompiledPattern, subject: string): PatternTest {
  if (typeof pattern === 'string') {
    const verdict = knownVerdict(pattern, subject) ?? literalVerdict(pattern, subject);
    // A copy: knownVerdict shares one frozen object per exact verdict, and a caller may keep or
    // change what it gets.
    if (verdict !== undefined) return { ...verdict };
  }
  const c = typeof pattern === 'string' ? compilePattern(pattern) : pattern;
  if (c.status === 'invalid') return { status: 'error', reason: `invalid pattern: ${c.reason}` };
  if (c.status === 'unsupported') return { status: 'error', reason: `cannot be evaluated offline: ${c.reason}` };
  const outcome = c.matcher.test(subject);
  if (outcome.matched === undefined) return { status: 'error', reason: `cannot be evaluated safely: ${outcome.error}` };
  const status = outcome.matched ? 'match' : 'no-match';
  const caveat = subjectCaveat(c.features, c.parsed.options.icase, subject);
  return caveat === null ? { status, exact: true } : { status, exact: false, reason: caveat };
}

export type PatternValidity =
  | { valid: true }
  | { valid: false; reason: string }
  /** Offline we cannot tell whether Postgres accepts it. */
  | { valid: 'unknown'; reason: string };

/** What `POST /api/public/models` would say about a `matchPattern` (it runs `'test_string' ~ pattern`). */
export function validatePattern(pattern: string): PatternValidity {
  const parsed = parseAre(pattern);
  if (parsed.ok) return { valid: true };
  if (parsed.kind === 'invalid') return { valid: false, reason: parsed.reason };
  return { valid: 'unknown', reason: `uses ${parsed.reason}` };
}

/** How a pattern is read, for explanations: options, anchoring, and the JS regex used offline. */
export interface PatternDescription {
  pattern: string;
  status: CompiledPattern['status'];
  /** Why it is invalid or cannot be evaluated. */
  reason?: string;
  caseInsensitive?: boolean;
  /** Embedded options or director as written, e.g. "(?i)". */
  prefix?: string;
  /** An equivalent JavaScript regex, to explain the reading (matching does not use it). */
  js?: { source: string; flags: string };
}

const descriptions = new Map<string, PatternDescription>();

/** How a pattern is read, remembered per pattern (callers must not modify the result). */
export function describePattern(pattern: string): PatternDescription {
  let description = descriptions.get(pattern);
  if (description === undefined) {
    description = describeUncached(pattern);
    if (descriptions.size >= CACHE_LIMIT) descriptions.clear();
    descriptions.set(pattern, description);
  }
  return description;
}

function describeUncached(pattern: string): PatternDescription {
  const c = compilePattern(pattern);
  if (c.status !== 'ok') return { pattern, status: c.status, reason: c.reason };
  const translated = translateAre(c.parsed);
  return {
    pattern,
    status: 'ok',
    caseInsensitive: c.parsed.options.icase,
    prefix: c.parsed.prefix,
    ...(translated.ok ? { js: { source: translated.translation.source, flags: translated.translation.flags } } : {}),
  };
}

// The usage conditions of pricing tiers (core/pricing-tier.ts). They repeat across generations:
// compile each pattern once.
const REGEX_CACHE_LIMIT = 2000;
const regexCache = new Map<string, AreMatcher | Error>();

/**
 * The server reads the pattern as a JS regex, unanchored, case-insensitive unless caseSensitive
 * (not Postgres' dialect). It runs here on the linear-time automata, not on V8's backtracking
 * engine: a definition from a server or a models file must not be able to stall an estimate.
 */
export function conditionRegex(pattern: string, caseSensitive: boolean): AreMatcher | Error {
  const key = `${caseSensitive ? 's' : 'i'}:${pattern}`;
  let compiled = regexCache.get(key);
  if (compiled === undefined) {
    const parsed = parseJsRegex(pattern, !caseSensitive);
    if (!parsed.ok) compiled = new Error(parsed.reason);
    else {
      const built = compileMatcher(parsed.parsed, DEFAULT_LIMITS, { codeUnits: true });
      compiled = built.ok ? built.matcher : new Error(built.reason);
    }
    if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.clear();
    regexCache.set(key, compiled);
  }
  return compiled;
}

/** This module as matching and pricing use it. */
export const PATTERN_ENGINE: PatternEngine = { testPattern, conditionRegex, compiledPatternCount };

// Matching and pricing find the engine in engine-slot.ts; engine.ts loads this module when needed.
registerPatternEngine(PATTERN_ENGINE);
