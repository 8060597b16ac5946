// Output of `llmobs estimate`: the documented JSON object, a human summary, and `--explain` in words.
import type { Context } from '../../context.js';
import { type DefinitionsOrigin, describeOrigin, listNamesHint } from '../../model-definitions/index.js';
import { priceText, unknownConditionText } from '../models/render.js';
// From the modules, not the core/index.js barrel, which brings the zod schemas along.
import type { EstimateResult } from '../../core/estimate.js';
import type { LossReason, RankedDefinition } from '../../core/models/match.js';
import { StoredCostSum } from '../../core/precision.js';
import type { ConditionEvaluation } from '../../core/pricing-tier.js';
import { formatUsd } from '../../output/format.js';

/** The stable JSON result; `explain` only when asked for. */
export function resultJson(result: EstimateResult, explain: boolean): Record<string, unknown> {
  const json: Record<string, unknown> = {
    model: result.model,
    matchedModel: result.matchedModel,
    tokenizer: result.tokenizer,
    usageDetails: result.usageDetails,
    costDetails: result.costDetails,
    totalCost: result.totalCost,
    pricingTier: result.pricingTier,
    warnings: result.warnings,
  };
  if (result.suggestions) json.suggestions = result.suggestions;
  if (explain) json.explain = explainData(result);
  return json;
}

const LOSS_TEXT: Record<LossReason, string> = {
  'custom-definition-first': 'a custom definition matched, and custom definitions come before built-in ones',
  'older-start-date': 'the winner has a later start date',
  'no-start-date': 'it has no start date, which sorts last',
  tie: 'same group and start date: the server could pick either',
};

function ref(ranked: RankedDefinition) {
  const { definition } = ranked;
  return { id: definition.id, modelName: definition.modelName, matchPattern: definition.matchPattern, source: ranked.source, startDate: definition.startDate };
}

/** A compact account of how each number came about, shared by the JSON and the text form. */
export function explainData(result: EstimateResult) {
  const { match, tokenizer, usage, tier, cost } = result.explain;
  const winner = match?.winner ?? null;
  let why: string;
  if (!match) why = 'the model name is empty, so the server does not look for a definition';
  else if (!winner) why = 'no definition pattern matches this model name';
  else if (match.losers.length === 0) why = 'it is the only definition whose pattern matches';
  else if (match.losers.every((loser) => loser.reason === 'custom-definition-first')) why = 'custom definitions come before built-in ones';
  else why = 'among the matching definitions of its group it has the latest start date (none sorts last)';
  return {
    match: {
      winner: winner ? ref(winner) : null,
      why,
      alsoMatched: (match?.losers ?? []).map((loser) => ({ ...ref(loser), lostBecause: LOSS_TEXT[loser.reason] })),
      notEvaluated: (match?.unevaluated ?? []).map((item) => ({ ...ref(item), reason: item.reason, couldChangeResult: item.affectsResult })),
    },
    tokenizer: tokenizer
      ? tokenizer.ok
        ? { ...tokenizer.tokenizer, chat: tokenizer.chat, chatConfigMissing: tokenizer.chatConfigMissing }
        : { unusable: tokenizer.message }
      : null,
    usage: {
      source: usage.source,
      shape: usage.usageDetailsShape,
      provided: usage.provided,
      totalAdded: usage.totalAdded,
      tokenization: usage.tokenization,
      tokenizationSkipped: usage.tokenizationSkipped,
      dropped: usage.dropped.map(({ field, key, reason }) => ({ field, key, reason })),
    },
    tier: {
      name: tier.tier?.name ?? null,
      reason: tier.reason,
      tried: tier.evaluated.map((evaluation) => ({
        name: evaluation.tier.name,
        priority: evaluation.tier.priority,
        passed: evaluation.passed,
        undecided: evaluation.undecided,
        conditions: evaluation.conditions.map(conditionText),
      })),
    },
    cost: {
      source: cost.source,
      totalMethod: cost.totalMethod,
      lines: cost.lines.map(({ usageType, units, price, cost: value, stored }) => ({ usageType, units, price, cost: value, stored })),
      unpriced: cost.unpriced,
      sum: cost.totalMethod === 'sum' ? componentsSum(result) : null,
    },
  };
}

/**
 * How the server arrives at a summed total: it adds the components as floating-point numbers (in
 * usage-key order), then stores the result with 12 decimals, cutting off the rest. So components
 * that add up to 0.000575 can be stored as 0.000574999999. `exact` is the sum of the components
 * as shown (stored), `float` the server's sum, `stored` what it keeps and returns.
 */
export function componentsSum(result: EstimateResult): { exact: string; float: number; stored: number | null; differs: boolean } {
  const exact = new StoredCostSum();
  for (const line of result.explain.cost.lines) exact.add(line.stored);
  const float = result.explain.cost.totalCost ?? 0;
  return { exact: exact.toString(), float, stored: result.totalCost, differs: result.totalCost !== exact.value() };
}

function conditionText(condition: ConditionEvaluation): string {
  if (condition.kind === 'unknown') return `${unknownConditionText(condition.condition)}: cannot be evaluated, so it counts as not met`;
  if (condition.kind === 'usage') {
    const { usageDetailPattern, operator, value } = condition.condition;
    if (condition.error) return `usage keys /${usageDetailPattern}/: pattern not evaluated (${condition.error}), so the condition fails`;
    const keys = condition.matchedKeys.length ? condition.matchedKeys.join(' + ') : 'no usage key';
    return `sum of ${keys} (/${usageDetailPattern}/) = ${condition.sum} ${operator} ${value}: ${condition.passed ? 'yes' : 'no'}`;
  }
  const { source, key, values } = condition.condition;
  const seen = condition.value === undefined ? 'not set' : JSON.stringify(condition.value);
  return `${source}.${key} (${seen}) in [${values.join(', ')}]: ${condition.passed ? 'yes' : 'no'}`;
}

export function printEstimate(ctx: Context, result: EstimateResult, explain: boolean, origin: DefinitionsOrigin): void {
  const { out } = ctx;
  const matched = result.matchedModel;
  out.keyValues([
    ['Model', result.model],
    ['Definitions', describeOrigin(origin)],
    ['Definition', matched ? `${matched.modelName} (${matched.source}, ${matched.id})` : out.c.yellow('none: no usage or cost would be computed')],
    ['Tokenizer', result.tokenizer ? `${result.tokenizer.id} ${result.tokenizer.encoding}${result.tokenizer.tokenizerModel ? ` (${result.tokenizer.tokenizerModel})` : ''}` : 'none'],
    ['Pricing tier', result.pricingTier ?? 'none'],
  ]);
  out.line();
  const lines = new Map(result.explain.cost.lines.map((line) => [line.usageType, line]));
  const unit = result.explain.match?.winner?.definition.unit ?? null;
  const keys = [...new Set([...Object.keys(result.usageDetails), ...Object.keys(result.costDetails)])];
  if (keys.length === 0) {
    out.line('No usage and no cost.');
  } else {
    out.table(
      [{ header: 'USAGE TYPE' }, { header: 'UNITS', align: 'right' }, { header: 'PRICE', align: 'right' }, { header: 'COST', align: 'right' }],
      keys.map((key) => {
        const line = lines.get(key);
        return [key, result.usageDetails[key] ?? '', line ? priceText(line.price, unit) : '', formatUsd(result.costDetails[key], 'exact')];
      }),
    );
  }
  out.line();
  const sum = result.explain.cost.totalMethod === 'sum' ? componentsSum(result) : null;
  // Where the server's float sum lands below the components' sum, say so next to the number.
  const note = sum?.differs ? `  ${out.c.dim(`(the components add up to $${sum.exact}; the server's float sum is stored cut to 12 decimals, see --explain)`)}` : '';
  out.keyValues([['Total cost', `${formatUsd(result.totalCost, 'exact')}${note}`]]);
  if (explain) {
    out.line();
    printExplanation(ctx, result);
  }
  // No match is said last, by the command, in every output format (see reportNoMatch).
  for (const warning of result.warnings) if (warning.code !== 'no-matching-model') out.warn(`${warning.message} [${warning.code}]`);
}

/**
 * No definition matches: said on stderr whatever the output format, last, with the names to
 * suggest (the warning's message has them), so that a price of nothing is never taken for a price.
 */
export function reportNoMatch(ctx: Context, result: EstimateResult, origin: DefinitionsOrigin): void {
  const warning = result.matchedModel === null ? result.warnings.find((w) => w.code === 'no-matching-model') : undefined;
  if (!warning) return;
  ctx.out.warn(`${warning.message} [${warning.code}]`);
  if (result.model !== '' && !result.suggestions?.length) ctx.out.hint(listNamesHint(origin));
}

function printExplanation(ctx: Context, result: EstimateResult): void {
  const { out } = ctx;
  const data = explainData(result);
  const say = (text = '') => out.line(text);
  out.heading('Why this definition');
  if (data.match.winner) {
    const w = data.match.winner;
    say(`  "${result.model}" matches ${w.source} definition "${w.modelName}" (${w.id}), pattern ${w.matchPattern}${w.startDate ? `, start date ${w.startDate}` : ''}.`);
    say(`  It wins because ${data.match.why}.`);
  } else {
    say(`  No definition: ${data.match.why}. The server stores the generation without computed usage or cost.`);
  }
  for (const loser of data.match.alsoMatched) say(`  Also matched: "${loser.modelName}" (${loser.source}, ${loser.id}); lost because ${loser.lostBecause}.`);
  for (const item of data.match.notEvaluated) say(`  Not evaluated offline: "${item.modelName}" (${item.source}): ${item.reason}${item.couldChangeResult ? ' (it could change the result)' : ''}.`);

  say();
  out.heading('Usage');
  const usage = data.usage;
  if (usage.source === 'provided') {
    say(`  Provided by the client${usage.shape ? ` (${usage.shape === 'raw' ? 'a usage map' : usage.shape === 'chat-completions' ? 'OpenAI Chat Completions usage' : 'OpenAI Responses usage'})` : ''}; the server uses it as given.`);
    if (usage.totalAdded) say('  "total" was missing, so the server adds it as the sum of every usage key.');
  } else if (usage.source === 'tokenized' && usage.tokenization) {
    const tok = data.tokenizer && 'encoding' in data.tokenizer ? data.tokenizer : null;
    say(`  Nothing was provided, so the server tokenizes input and output${tok ? ` with ${tok.id} ${tok.encoding}` : ''}:`);
    for (const side of ['input', 'output'] as const) {
      const outcome = usage.tokenization[side];
      say(`    ${side}: ${outcome.kind === 'count' ? `${outcome.tokens} tokens (${outcome.path === 'chat' ? 'counted as chat messages' : outcome.path === 'claude' ? 'claude tokenizer' : 'counted as text'})` : outcome.kind === 'none' ? `no count (${outcome.reason})` : `error (${outcome.reason})`}`);
    }
    const countedAsChat = usage.tokenization.input.kind === 'count' && usage.tokenization.input.path === 'chat';
    if (tok?.chat && countedAsChat) say(`  Chat messages cost ${tok.chat.tokensPerMessage} per message and ${tok.chat.tokensPerName} per name, plus 3 for the reply priming.`);
  } else {
    say(`  None: ${usage.tokenizationSkipped ?? (data.tokenizer && 'unusable' in data.tokenizer ? data.tokenizer.unusable : 'nothing was provided and nothing could be tokenized')}.`);
  }
  for (const dropped of usage.dropped) say(`  Dropped by the server: ${dropped.field}.${dropped.key} (${dropped.reason}).`);

  say();
  out.heading('Pricing tier');
  const tier = data.tier;
  for (const tried of tier.tried) {
    const verdict = tried.passed ? 'all conditions hold' : tried.undecided ? 'undecided: the server may choose it' : 'not every condition holds';
    say(`  "${tried.name}" (priority ${tried.priority}): ${verdict}`);
    for (const condition of tried.conditions) say(`    ${condition}`);
  }
  const tierReason: Record<string, string> = {
    conditions: 'its conditions all hold',
    default: 'no other tier applies, so the default tier does',
    'no-default': 'no tier applies and there is no default tier: no cost',
    'no-tiers': 'the definition has no prices',
    'no-usage': 'there is no usage to price',
  };
  say(`  ${tier.name ? `Chosen: "${tier.name}", because ${tierReason[tier.reason]}.` : `None: ${tierReason[tier.reason]}.`}`);

  say();
  out.heading('Cost');
  const cost = data.cost;
  if (cost.source === 'provided') say('  Costs were provided by the client: they win, nothing is computed from prices.');
  for (const line of cost.lines) say(`  ${line.usageType}: ${line.units} × ${formatUsd(line.price, 'price')} = ${formatUsd(line.stored, 'exact')}`);
  const unpriced = cost.unpriced.filter((key) => key !== "total");
  if (unpriced.length) say(`  No price for ${unpriced.map((k) => `"${k}"`).join(', ')}: ignored (usage keys must equal price keys exactly, case included).`);
  const totals: Record<string, string> = {
    'provided-total': 'the provided total',
    'provided-input-output': 'provided input + output',
    'provided-no-total': 'none: the provided costs have other keys and no total',
    'total-price': 'the price of usage type "total", which replaces the sum',
    sum: 'the sum of the components',
    none: 'none',
  };
  if (cost.sum?.differs) {
    say(`  Total: the sum of the components, $${cost.sum.exact}, as the server computes and stores it:`);
    say(`    it adds the components as floating-point numbers: ${cost.sum.float}`);
    say(`    and stores costs with 12 decimals, cutting off the rest: ${formatUsd(result.totalCost, 'exact')}`);
    say('  That stored value is what Langfuse shows and returns for this generation, so it is the estimate.');
  } else {
    say(`  Total: ${totals[cost.totalMethod]} = ${formatUsd(result.totalCost, 'exact')} (costs are kept to 12 decimals, as the server stores them).`);
  }
}
