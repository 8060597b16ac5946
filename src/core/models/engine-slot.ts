// The slot that the regex engine (pattern.ts) fills when it loads. Apart from engine.ts, which
// loads pattern.ts, so that pattern.ts fills it without importing the module that loads it.
import type { AreMatcher } from '../regex/index.js';
import type { PatternTest } from './known-patterns.js';

/** What matching and pricing use of pattern.ts; it registers itself when it loads. */
export interface PatternEngine {
  testPattern(pattern: string, subject: string): PatternTest;
  conditionRegex(pattern: string, caseSensitive: boolean): AreMatcher | Error;
  compiledPatternCount(): number;
}

let engine: PatternEngine | undefined;

export function registerPatternEngine(loaded: PatternEngine): void {
  engine = loaded;
}

/** The engine, when it has been loaded. */
export function loadedPatternEngine(): PatternEngine | undefined {
  return engine;
}

/** The engine; a caller that did not load it first is a bug, not bad input. */
export function patternEngine(): PatternEngine {
  if (engine === undefined) throw new Error('internal error: a pattern must be compiled before the regex engine was loaded (await preparePatterns or loadPatternEngine first)');
  return engine;
}
