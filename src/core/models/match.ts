import { didYouMean } from '../did-you-mean.js';
import { patternEngine } from './engine-slot.js';
import { knownVerdict } from './known-patterns.js';
import type { DefinitionSource, ModelDefinition } from './types.js';
import { definitionSource } from './types.js';

/**
 * Which definition a model name resolves to, reproducing the server's query:
 *
 *   WHERE (project_id = $p OR project_id IS NULL) AND $model ~ match_pattern
 *   ORDER BY project_id ASC, start_date DESC NULLS LAST LIMIT 1
 *
 * Project (custom) definitions sort before Langfuse-managed ones, then the latest start date
 * wins and a null start date comes last. The server has no further tie-break, so ties are
 * resolved here by id, model name and pattern (to stay deterministic) and reported.
 * The start date is not compared with the observation's time: the server does not either.
 */

export interface RankedDefinition {
  definition: ModelDefinition;
  source: DefinitionSource;
}

export type LossReason =
  /** A custom definition matched too, and custom ones always come first. */
  | 'custom-definition-first'
  /** Same group, but the winner starts later. */
  | 'older-start-date'
  /** Same group; definitions without a start date sort last. */
  | 'no-start-date'
  /** Same group and start date as the winner: the server could have picked either. */
  | 'tie';

export interface LosingMatch extends RankedDefinition {
  reason: LossReason;
}

export interface UnevaluatedPattern extends RankedDefinition {
  reason: string;
  /** Whether this definition could rank at or above the winner, i.e. could change the answer. */
  affectsResult: boolean;
}

export interface MatchResult {
  /** The model name exactly as given. */
  model: string;
  winner: RankedDefinition | null;
  /** Definitions that tie with the winner; non-empty means the server's choice is undefined. */
  tiedWith: RankedDefinition[];
  losers: LosingMatch[];
  unevaluated: UnevaluatedPattern[];
}

function startTime(d: ModelDefinition): number | null {
  if (d.startDate === null) return null;
  const t = Date.parse(d.startDate);
  return Number.isNaN(t) ? null : t;
}

/** Negative when `a` ranks before `b` in the server's ORDER BY; 0 when the server cannot tell them apart. */
export function compareRank(a: ModelDefinition, b: ModelDefinition): number {
  const ga = a.isLangfuseManaged ? 1 : 0;
  const gb = b.isLangfuseManaged ? 1 : 0;
  if (ga !== gb) return ga - gb;
  const ta = startTime(a);
  const tb = startTime(b);
  if (ta === tb) return 0;
  if (ta === null) return 1;
  if (tb === null) return -1;
  return tb - ta;
}

function tieBreak(a: ModelDefinition, b: ModelDefinition): number {
  const key = (d: ModelDefinition): string[] => [d.id, d.modelName, d.matchPattern];
  const ka = key(a);
  const kb = key(b);
  for (let i = 0; i < ka.length; i++) {
    if (ka[i]! < kb[i]!) return -1;
    if (ka[i]! > kb[i]!) return 1;
  }
  return 0;
}

function lossReason(winner: ModelDefinition, loser: ModelDefinition): LossReason {
  if (winner.isLangfuseManaged !== loser.isLangfuseManaged) return 'custom-definition-first';
  if (compareRank(winner, loser) === 0) return 'tie';
  return startTime(loser) === null ? 'no-start-date' : 'older-start-date';
}

export function findModel(model: string, definitions: readonly ModelDefinition[]): MatchResult {
  const matched: ModelDefinition[] = [];
  const skipped: { definition: ModelDefinition; reason: string }[] = [];
  for (const definition of definitions) {
    // By text, not compiled: a pattern whose prefilter rules the name out is never compiled.
    const res = knownVerdict(definition.matchPattern, model) ?? patternEngine().testPattern(definition.matchPattern, model);
    if (res.status === 'error') skipped.push({ definition, reason: res.reason });
    else if (!res.exact) skipped.push({ definition, reason: `cannot be decided offline: ${res.reason}` });
    else if (res.status === 'match') matched.push(definition);
  }
  matched.sort((a, b) => compareRank(a, b) || tieBreak(a, b));
  const top = matched[0];
  const rank = (definition: ModelDefinition): RankedDefinition => ({ definition, source: definitionSource(definition) });
  const winner = top ? rank(top) : null;
  const tiedWith = top ? matched.slice(1).filter((d) => compareRank(top, d) === 0).map(rank) : [];
  const losers = top ? matched.slice(1).map((d) => ({ ...rank(d), reason: lossReason(top, d) })) : [];
  const unevaluated = skipped.map(({ definition, reason }) => ({
    ...rank(definition),
    reason,
    affectsResult: top === undefined || compareRank(definition, top) <= 0,
  }));
  return { model, winner, tiedWith, losers, unevaluated };
}

/**
 * `findModel` over a fixed set of definitions, remembering the answer per model name: a batch of
 * generations repeats the same few names, and matching tests every pattern. Bounded, so a stream
 * of distinct names cannot grow it without limit.
 */
export function createMatcher(definitions: readonly ModelDefinition[], limit = 10_000): (model: string) => MatchResult {
  const cache = new Map<string, MatchResult>();
  return (model) => {
    let result = cache.get(model);
    if (result === undefined) {
      result = findModel(model, definitions);
      if (cache.size >= limit) cache.clear();
      cache.set(model, result);
    }
    return result;
  };
}

/** What it means that no definition matches `model`, with the names to suggest, if any. */
export function noMatchMessage(model: string, suggestions: readonly string[] = []): string {
  if (model === '') return 'The model name is empty, so the server does not look for a definition.';
  const hint = didYouMean(suggestions);
  return `No model definition matches "${model}"; ${hint ? `${hint} The server` : 'the server'} computes neither usage nor cost for it.`;
}
