import type { ParsedAre } from '../regex/are-ast.js';
import { parseAre } from '../regex/are-parser.js';
import type { JsTranslation } from '../regex/are-to-js.js';
import { subjectCaveat, translateAre } from '../regex/are-to-js.js';

/**
 * A `matchPattern` compiled to behave like Postgres' `model ~ match_pattern`:
 * unanchored search, case-sensitive unless the pattern opens with embedded options such as `(?i)`.
 */
export type CompiledPattern =
  | {
      status: 'ok';
      pattern: string;
      regex: RegExp;
      parsed: ParsedAre;
      translation: JsTranslation;
    }
  /** Postgres rejects the pattern (POST /models answers 400). */
  | { status: 'invalid'; pattern: string; reason: string }
  /** Valid or not, its behaviour cannot be reproduced offline; `reason` says why. */
  | { status: 'unsupported'; pattern: string; reason: string };

export type PatternTest =
  | { status: 'match' | 'no-match'; exact: true }
  /** The JS verdict is shown, but Postgres may decide differently for this subject. */
  | { status: 'match' | 'no-match'; exact: false; reason: string }
  | { status: 'error'; reason: string };

const CACHE_LIMIT = 5000;
const cache = new Map<string, CompiledPattern>();

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
  const translated = translateAre(parsed.parsed);
  if (!translated.ok) return { status: 'unsupported', pattern, reason: translated.reason };
  const { source, flags } = translated.translation;
  return { status: 'ok', pattern, regex: new RegExp(source, flags), parsed: parsed.parsed, translation: translated.translation };
}

/** A pattern's JS translation, computed ahead of time (the build does it for the built-in catalogue). */
export interface PrecompiledPattern {
  pattern: string;
  translation: JsTranslation;
}

/**
 * Translations of the patterns that translate (others are left to compilePattern), for
 * seedCompiledPatterns. Translating the catalogue's 167 patterns takes some 50 ms, which every
 * `estimate` and `models match` would otherwise pay at start.
 */
export function precompilePatterns(patterns: readonly string[]): PrecompiledPattern[] {
  const out: PrecompiledPattern[] = [];
  for (const pattern of new Set(patterns)) {
    const c = compileUncached(pattern);
    if (c.status === 'ok') out.push({ pattern, translation: c.translation });
  }
  return out;
}

/**
 * Fills the cache of compilePattern from precompiled translations. The parsed form, which only
 * explanations and the lint checks read, is parsed again on first access.
 */
export function seedCompiledPatterns(entries: readonly PrecompiledPattern[]): void {
  for (const { pattern, translation } of entries) {
    if (cache.has(pattern) || cache.size >= CACHE_LIMIT) continue;
    let parsed: ParsedAre | undefined;
    cache.set(pattern, {
      status: 'ok',
      pattern,
      translation,
      regex: new RegExp(translation.source, translation.flags),
      get parsed(): ParsedAre {
        if (!parsed) {
          const result = parseAre(pattern);
          if (!result.ok) throw new Error(`precompiled pattern ${pattern} does not parse`);
          parsed = result.parsed;
        }
        return parsed;
      },
    });
  }
}

/** Evaluates `subject ~ pattern`. The subject is used exactly as given: no trimming, no case change. */
export function testPattern(pattern: string | CompiledPattern, subject: string): PatternTest {
  const c = typeof pattern === 'string' ? compilePattern(pattern) : pattern;
  if (c.status === 'invalid') return { status: 'error', reason: `invalid pattern: ${c.reason}` };
  if (c.status === 'unsupported') return { status: 'error', reason: `cannot be evaluated offline: ${c.reason}` };
  const status = c.regex.test(subject) ? 'match' : 'no-match';
  // The flags say whether the pattern is case-insensitive; reading c.parsed would parse a
  // precompiled pattern again (see seedCompiledPatterns).
  const caveat = subjectCaveat(c.translation, c.translation.flags.includes('i'), subject);
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
  return {
    pattern,
    status: 'ok',
    caseInsensitive: c.parsed.options.icase,
    prefix: c.parsed.prefix,
    js: { source: c.translation.source, flags: c.translation.flags },
  };
}
