import type { AreNode } from '../regex/index.js';
// The table alone, not the tokenizer's index: the core loads neither the engine nor node:fs.
import { isChatModel, isTiktokenModel } from '../../tokenizer/tiktoken-models.js';
import type { ModelDraft, ModelDraftInput, PricingTierInput } from './draft.js';
import { normalizeDraftInput } from './draft.js';
import type { DefinitionIssue } from './issues.js';
import { error, hasErrors, warning } from './issues.js';
import { compilePattern, testPattern, validatePattern } from './pattern.js';
import { checkPrices, checkPricingTiers } from './tier-checks.js';
import type { ModelUnit } from './types.js';
import { MODEL_UNITS } from './types.js';

/**
 * Checks a definition before it is created, or when linting a file. Errors are what the server
 * would reject or silently misread; warnings are legal but probably not what was meant.
 */

/** Usage keys seen in practice (the built-in catalogue prices these). */
export const COMMON_USAGE_KEYS = [
  'input',
  'output',
  'total',
  'input_cached_tokens',
  'input_cache_read',
  'input_cache_creation',
  'input_cache_creation_5m',
  'input_cache_creation_1h',
  'input_audio_tokens',
  'input_text_tokens',
  'input_image',
  'output_reasoning_tokens',
  'output_audio_tokens',
  'output_text_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
  'input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cache_write_tokens',
  'promptTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
];

export interface CheckOptions {
  /** Unit used when the definition sets none; null makes a missing unit an error. Default TOKENS. */
  unitDefault?: ModelUnit | null;
}

export interface CheckResult {
  issues: DefinitionIssue[];
  /** The checked definition; absent when there are errors. */
  draft?: ModelDraft;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function patternWarnings(pattern: string, modelName: string | undefined, issues: DefinitionIssue[]): void {
  const compiled = compilePattern(pattern);
  if (compiled.status !== 'ok') return;
  const { ast, options } = compiled.parsed;
  if (!options.icase && modelName !== undefined && /[A-Za-z]/.test(modelName)) {
    issues.push(
      warning('pattern-case-sensitive', 'The pattern is case-sensitive: "GPT-4o" and "gpt-4o" are different names to it. Start it with (?i) to ignore case.', 'matchPattern'),
    );
  }
  const branches = ast.type === 'alt' ? ast.branches : ast.type === 'group' && ast.body.type === 'alt' ? ast.body.branches : [ast];
  const edge = (b: AreNode, end: boolean): AreNode | undefined => {
    const items = b.type === 'concat' ? b.items : [b];
    return end ? items[items.length - 1] : items[0];
  };
  const anchored = branches.every((b) => {
    const first = edge(b, false);
    const last = edge(b, true);
    return (
      first?.type === 'anchor' && (first.kind === 'bol' || first.kind === 'strStart') && last?.type === 'anchor' && (last.kind === 'eol' || last.kind === 'strEnd')
    );
  });
  if (!anchored) {
    issues.push(
      warning('pattern-unanchored', 'The pattern is not anchored with ^...$, so it also matches names that merely contain a match (e.g. "my-gpt-4o-copy" for gpt-4o).', 'matchPattern'),
    );
  }
  let loneDot = false;
  const visit = (n: AreNode, quantified: boolean): void => {
    switch (n.type) {
      case 'any':
        if (!quantified) loneDot = true;
        break;
      case 'repeat':
        visit(n.body, n.max === Infinity);
        break;
      case 'group':
      case 'look':
        visit(n.body, false);
        break;
      case 'concat':
        n.items.forEach((x) => visit(x, false));
        break;
      case 'alt':
        n.branches.forEach((x) => visit(x, false));
        break;
      default:
        break;
    }
  };
  visit(ast, false);
  if (loneDot) {
    issues.push(
      warning('pattern-unescaped-dot', 'The pattern has an unescaped "." which matches any character (e.g. "gpt-3.5" also matches "gpt-305"). Write \\. for a literal dot.', 'matchPattern'),
    );
  }
  if (modelName !== undefined) {
    const own = testPattern(compiled, modelName);
    if (own.status === 'no-match') {
      issues.push(warning('pattern-misses-name', `The pattern does not match the definition's own name "${modelName}".`, 'matchPattern'));
    }
  }
}

function priceKeyWarnings(keys: readonly string[], path: string, issues: DefinitionIssue[]): void {
  for (const key of keys) {
    const usual = COMMON_USAGE_KEYS.find((k) => k !== key && k.toLowerCase() === key.toLowerCase());
    if (usual && !keys.includes(usual)) {
      issues.push(
        warning('price-key-case', `Price key "${key}" differs from the usual usage key "${usual}" only by case; usage keys are matched exactly, so usage "${usual}" would not be priced.`, `${path}.${key}`),
      );
    }
  }
}

function checkTokenizer(input: ModelDraftInput, issues: DefinitionIssue[]): ModelDraft['tokenizerId'] {
  const id = input.tokenizerId;
  const cfg = input.tokenizerConfig;
  if (id === undefined || id === null) {
    if (cfg !== undefined && cfg !== null) {
      issues.push(warning('tokenizer-config-unused', 'tokenizerConfig is set but tokenizerId is not: the server never tokenizes for this definition.', 'tokenizerConfig'));
    }
    return null;
  }
  if (id !== 'openai' && id !== 'claude') {
    issues.push(error('tokenizer-unknown', `tokenizerId must be "openai" or "claude", got ${JSON.stringify(id)}.`, 'tokenizerId'));
    return null;
  }
  if (id === 'claude') return id;
  const model = isRecord(cfg) ? cfg['tokenizerModel'] : undefined;
  if (typeof model !== 'string') {
    issues.push(error('tokenizer-config-missing', 'Tokenizer "openai" needs tokenizerConfig.tokenizerModel; without it the server never tokenizes.', 'tokenizerConfig.tokenizerModel'));
    return id;
  }
  if (!isTiktokenModel(model)) {
    issues.push(
      error('tokenizer-model-unsupported', `The server cannot tokenize with tokenizerModel "${model}": it is not in its tiktoken model list (for gpt-4o-mini and newer, use "gpt-4o").`, 'tokenizerConfig.tokenizerModel'),
    );
    return id;
  }
  if (isChatModel(model)) {
    const perMessage = (cfg as Record<string, unknown>)['tokensPerMessage'];
    const perName = (cfg as Record<string, unknown>)['tokensPerName'];
    if (typeof perMessage !== 'number' || typeof perName !== 'number') {
      issues.push(
        error('chat-config-missing', `"${model}" is a chat tokenizer model: without numeric tokensPerMessage and tokensPerName the server counts no tokens for chat-message input (usually 3 and 1).`, 'tokenizerConfig'),
      );
    }
  }
  return id;
}

export function checkModelDraft(input: ModelDraftInput, options: CheckOptions = {}): CheckResult {
  const issues: DefinitionIssue[] = [];
  const unitDefault = options.unitDefault === undefined ? 'TOKENS' : options.unitDefault;

  const modelName = typeof input.modelName === 'string' && input.modelName.length > 0 ? input.modelName : undefined;
  if (modelName === undefined) issues.push(error('model-name-missing', 'modelName must be a non-empty string.', 'modelName'));

  const matchPattern = typeof input.matchPattern === 'string' ? input.matchPattern : undefined;
  if (matchPattern === undefined) {
    issues.push(error('match-pattern-missing', 'matchPattern must be a string.', 'matchPattern'));
  } else {
    const validity = validatePattern(matchPattern);
    if (validity.valid === false) {
      issues.push(error('invalid-regex', `matchPattern is not a valid Postgres regular expression: ${validity.reason}.`, 'matchPattern'));
    } else if (validity.valid === 'unknown') {
      issues.push(warning('regex-not-checkable', `matchPattern cannot be checked offline: it ${validity.reason}.`, 'matchPattern'));
    } else {
      patternWarnings(matchPattern, modelName, issues);
    }
  }

  let unit: ModelUnit | null = null;
  if (input.unit === undefined || input.unit === null) {
    if (unitDefault === null) issues.push(error('unit-missing', `unit is required (one of ${MODEL_UNITS.join(', ')}).`, 'unit'));
    unit = unitDefault;
  } else if (!(MODEL_UNITS as readonly unknown[]).includes(input.unit)) {
    issues.push(error('unit-invalid', `unit must be one of ${MODEL_UNITS.join(', ')}.`, 'unit'));
  } else {
    unit = input.unit as ModelUnit;
  }

  let startDate: string | null = null;
  if (input.startDate !== undefined && input.startDate !== null) {
    if (typeof input.startDate !== 'string' || Number.isNaN(Date.parse(input.startDate))) {
      issues.push(error('start-date-invalid', 'startDate must be an ISO date or date-time.', 'startDate'));
    } else startDate = input.startDate;
  }

  const tokenizerId = checkTokenizer(input, issues);

  const hasFlat = input.prices !== undefined && Object.keys(input.prices).length > 0;
  const hasTiers = input.pricingTiers !== undefined && input.pricingTiers !== null;
  let prices: Record<string, number> = {};
  let pricingTiers: PricingTierInput[] | null = null;
  if (hasFlat && hasTiers) {
    issues.push(error('prices-and-tiers', 'Give either prices or pricingTiers, not both.', 'pricingTiers'));
  } else if (!hasFlat && !hasTiers) {
    issues.push(error('no-prices', 'The definition has no prices; the server requires flat prices or pricingTiers.', 'prices'));
  }
  if (hasFlat) {
    prices = checkPrices(input.prices!, 'prices', issues);
    priceKeyWarnings(Object.keys(input.prices!), 'prices', issues);
    totalReplacesSum(prices, 'prices', undefined, issues);
  }
  if (hasTiers) {
    pricingTiers = checkPricingTiers(input.pricingTiers, issues);
    if (pricingTiers) {
      pricingTiers.forEach((t, i) => {
        priceKeyWarnings(Object.keys(t.prices), `pricingTiers.${i}.prices`, issues);
        totalReplacesSum(t.prices, `pricingTiers.${i}.prices`, t.name, issues);
      });
    }
  }

  if (hasErrors(issues) || modelName === undefined || matchPattern === undefined || unit === null) return { issues };
  return {
    issues,
    draft: {
      modelName,
      matchPattern,
      unit,
      startDate,
      tokenizerId,
      tokenizerConfig: input.tokenizerConfig,
      prices: pricingTiers ? {} : prices,
      pricingTiers,
    },
  };
}

/**
 * A price for usage type "total" next to other prices is legal (the server's validatePricingTiers
 * accepts it, and definitions like it exist), but the cost is then the total price × total units:
 * it replaces the sum of the other components instead of adding to it. Usually not what was meant.
 */
function totalReplacesSum(prices: Record<string, number>, path: string, tier: string | undefined, issues: DefinitionIssue[]): void {
  const others = Object.keys(prices).filter((k) => k !== 'total');
  if (prices['total'] === undefined || others.length === 0) return;
  const where = tier === undefined ? '' : `Tier "${tier}": `;
  issues.push(
    warning(
      'total-price-replaces-sum',
      `${where}"total" is priced next to ${others.map((k) => `"${k}"`).join(', ')}: the total cost is then the total price × total units, which replaces the sum of the other components (they are still listed in costDetails).`,
      `${path}.total`,
    ),
  );
}

/** Normalises a definition written in either shape, then checks it; the draft is returned only without errors. */
export function checkDefinitionInput(raw: unknown, options: CheckOptions = {}): CheckResult {
  const normalized = normalizeDraftInput(raw);
  const checked = checkModelDraft(normalized.input, options);
  const issues = [...normalized.issues, ...checked.issues];
  return hasErrors(issues) || !checked.draft ? { issues } : { issues, draft: checked.draft };
}

// The most expensive token prices are far below $10,000 per million tokens; a larger per-token
// price is almost always a per-million price typed into a per-token field.
const PER_TOKEN_PRICE_LIMIT = 0.01;

/**
 * Warns about token prices that look like prices per million tokens. Kept apart from
 * `checkModelDraft` because it is a guess about intent, for commands that take prices from people.
 */
export function checkPriceMagnitudes(draft: Pick<ModelDraft, 'unit' | 'prices'> & { pricingTiers: ReadonlyArray<{ prices: Record<string, number> }> | null }): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  if (draft.unit !== 'TOKENS' && draft.unit !== 'CHARACTERS') return issues;
  const per = draft.unit === 'CHARACTERS' ? 'character' : 'token';
  const maps: [string, Record<string, number>][] = draft.pricingTiers
    ? draft.pricingTiers.map((t, i) => [`pricingTiers.${i}.prices`, t.prices])
    : [['prices', draft.prices]];
  for (const [path, prices] of maps) {
    for (const [key, price] of Object.entries(prices)) {
      if (price > PER_TOKEN_PRICE_LIMIT && (/^(input|output|total)$/.test(key) || /token/i.test(key))) {
        const perMillion = Number((price * 1e6).toPrecision(12));
        issues.push(
          warning('price-per-million', `The price of "${key}" is ${price} USD per ${per} ($${perMillion} per million); prices are per ${per}, so ${price}/1M (= ${Number((price / 1e6).toPrecision(12))}) may be what was meant.`, `${path}.${key}`),
        );
      }
    }
  }
  return issues;
}
