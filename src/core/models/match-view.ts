// What `models match` reports of a match, in words and as its --json object: the winner and why it
// wins, the definitions that also match and why they lose, and the tokenizer and prices that apply.
import { resolveTokenizer } from '../../tokenizer/count-rules.js';
import type { LosingMatch, MatchResult, RankedDefinition } from './match.js';
import { defaultPrices, type ModelDefinition } from './types.js';

/** A definition as the view names it. */
export function definitionSummary(r: RankedDefinition) {
  const d = r.definition;
  return { id: d.id, modelName: d.modelName, matchPattern: d.matchPattern, source: r.source, startDate: d.startDate };
}

/** Why a definition that also matches does not win, in words. */
export function lossText(loser: LosingMatch, winner: ModelDefinition): string {
  switch (loser.reason) {
    case 'custom-definition-first':
      return 'built-in: a custom definition matches too, and custom ones come first';
    case 'older-start-date':
      return `older start date than the winner's (${winner.startDate})`;
    case 'no-start-date':
      return 'no start date: definitions with one come first';
    case 'tie':
      return 'tie: same kind and start date as the winner; the server may pick this one instead';
  }
}

/** Why the winner wins, in words; null without one. */
export function whyText(result: MatchResult): string | null {
  const winner = result.winner;
  if (!winner) return null;
  if (result.losers.length === 0) return `the only definition whose pattern matches "${result.model}"`;
  const parts: string[] = [];
  if (result.losers.some((l) => l.reason === 'custom-definition-first')) parts.push('custom definitions come before built-in ones');
  if (result.losers.some((l) => l.reason === 'older-start-date' || l.reason === 'no-start-date')) {
    parts.push(`it has the latest start date (${winner.definition.startDate}) of the matching ${winner.source} definitions`);
  }
  if (result.tiedWith.length > 0) {
    parts.push(`it ties with ${result.tiedWith.length} other${result.tiedWith.length > 1 ? 's' : ''} and comes first by id here; the server may pick another`);
  }
  return parts.join('; ');
}

/** The tokenizer the server would use; null without one; the problem when it would not work. */
export function tokenizerView(definition: ModelDefinition) {
  const r = resolveTokenizer(definition);
  if (r.ok) {
    return { id: r.tokenizer.id, encoding: r.tokenizer.encoding, tokenizerModel: r.tokenizer.tokenizerModel ?? null, chat: r.chat, chatConfigMissing: r.chatConfigMissing };
  }
  return r.reason === 'no-tokenizer' ? null : { id: definition.tokenizerId, problem: r.reason, message: r.message };
}

/**
 * The --json object of `models match`; `definitions` says which definitions were matched against.
 * Without a match it has the names to suggest (see core/did-you-mean.ts), maybe none.
 */
export function matchView<Origin>(result: MatchResult, definitions: Origin, suggestions: readonly string[] = []) {
  const winner = result.winner?.definition ?? null;
  return {
    model: result.model,
    definitions,
    matched: winner !== null,
    winner: result.winner ? definitionSummary(result.winner) : null,
    why: whyText(result),
    definition: winner,
    tokenizer: winner ? tokenizerView(winner) : null,
    unit: winner?.unit ?? null,
    prices: winner ? defaultPrices(winner) : null,
    pricingTiers: winner?.pricingTiers ?? null,
    ties: result.tiedWith.map(definitionSummary),
    losers: winner ? result.losers.map((l) => ({ ...definitionSummary(l), reason: l.reason, explanation: lossText(l, winner) })) : [],
    notEvaluated: result.unevaluated.map((u) => ({ ...definitionSummary(u), reason: u.reason, couldChangeResult: u.affectsResult })),
    ...(winner === null ? { suggestions: [...suggestions] } : {}),
  };
}
