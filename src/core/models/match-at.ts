// Matching with start dates compared to the generation's time, as Langfuse documents a
// definition's startDate ("apply only to generations which are newer than this date"): among the
// definitions whose pattern matches, those that start after the generation are left out, then
// the server's order applies (custom first, latest start date, no start date last). The server
// itself does not compare the dates at ingestion (SEMANTICS.md a.); re-pricing past generations
// does, so that a definition with new prices from a given day prices only what came after it.
import { compareRank, createMatcher, type MatchResult, type RankedDefinition } from './match.js';
import type { ModelDefinition } from './types.js';

function startOf(definition: ModelDefinition): number | null {
  if (definition.startDate === null) return null;
  const t = Date.parse(definition.startDate);
  return Number.isNaN(t) ? null : t;
}

/**
 * `(model, atMs)` → the match at that time; `atMs` null (time unknown) gives the server's
 * choice. Answers are remembered per model name and chosen definition (bounded).
 */
export function createDatedMatcher(definitions: readonly ModelDefinition[], limit = 10_000): (model: string, atMs: number | null) => MatchResult {
  const base = createMatcher(definitions, limit);
  const derived = new Map<string, MatchResult>();
  return (model, atMs) => {
    const result = base(model);
    if (atMs === null || result.winner === null) return result;
    const start = startOf(result.winner.definition);
    if (start === null || start <= atMs) return result;
    // The server's winner starts later: take the first definition in its order that applies.
    const ranked: RankedDefinition[] = [result.winner, ...result.losers];
    const eligible = ranked.filter((r) => {
      const s = startOf(r.definition);
      return s === null || s <= atMs;
    });
    const chosen = eligible[0] ?? null;
    const key = `${model}\u0000${chosen?.definition.id ?? ''}`;
    let answer = derived.get(key);
    if (answer === undefined) {
      answer = {
        model,
        winner: chosen,
        tiedWith: chosen ? eligible.slice(1).filter((r) => compareRank(chosen.definition, r.definition) === 0) : [],
        losers: [],
        unevaluated: result.unevaluated,
      };
      if (derived.size >= limit) derived.clear();
      derived.set(key, answer);
    }
    return answer;
  };
}
