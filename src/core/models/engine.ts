// The regex engine (parser, automata: pattern.ts and regex/) is loaded only when a pattern must
// be compiled. Most names are matched against the built-in catalogue from the patterns known at
// build time (known-patterns.ts), and pricing with the winner's tiers needs no regex unless a tier
// has a usage condition: `estimate --model gpt-4o` then loads none of it. The functions that
// match stay synchronous; their callers first `await preparePatterns(...)` (one name) or
// `await loadPatternEngine()` (many names: a batch, the server's ingestion, a re-pricing).
import { loadedPatternEngine, type PatternEngine } from './engine-slot.js';
import { knownVerdict } from './known-patterns.js';
import { isUsageCondition, type ModelDefinition } from './types.js';

/** The regex engine, loaded once; pattern.ts puts itself in the slot (engine-slot.ts) when it loads. */
export async function loadPatternEngine(): Promise<PatternEngine> {
  if (loadedPatternEngine() === undefined) await import('./pattern.js');
  return loadedPatternEngine()!;
}

/** Patterns compiled in this process so far (--verbose says how many matching needed). */
export function compiledPatternCount(): number {
  return loadedPatternEngine()?.compiledPatternCount() ?? 0;
}

/**
 * Loads the engine when matching `model` against `definitions`, then pricing with the tiers of
 * a definition it may match, needs it: a pattern not known ahead, or one whose prefilter cannot
 * rule the name out, or a usage condition (a regex over usage keys) in a matching definition's tiers.
 */
export async function preparePatterns(definitions: readonly ModelDefinition[], model: string): Promise<void> {
  if (loadedPatternEngine() !== undefined) return;
  for (const definition of definitions) {
    const verdict = knownVerdict(definition.matchPattern, model);
    if (verdict === undefined || (verdict.status === 'match' && definition.pricingTiers.some((tier) => tier.conditions.some(isUsageCondition)))) {
      await loadPatternEngine();
      return;
    }
  }
}
