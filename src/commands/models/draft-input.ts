// A definition to send, built from layers (the stored definition for update, then --file, then
// flags) and checked before anything is sent: errors refuse, warnings warn (--strict refuses).
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { checkModelDraft, checkPriceMagnitudes } from '../../core/models/checks.js';
import { type ModelDraft, type ModelDraftInput, normalizeDraftInput } from '../../core/models/draft.js';
import type { DefinitionIssue } from '../../core/models/issues.js';
import { buildCreateModelBody, type CreateModelBody } from '../../core/models/request.js';
import { UsageError } from '../../errors.js';
import { parseJson, parseJsonOrYaml, readTextInput } from '../../io/files.js';
import { splitAssignment } from '../options.js';

const wholeNumber = z.string().regex(/^-?\d+$/, 'must be a whole number').transform(Number);

/** The flags create and update share. */
export const DefinitionFlags = z.object({
  name: z.string().min(1, 'must not be empty').optional(),
  matchPattern: z.string().optional(),
  tokenizer: z.enum(['openai', 'claude', 'none']).optional(),
  tokenizerModel: z.string().min(1).optional(),
  tokensPerMessage: wholeNumber.optional(),
  tokensPerName: wholeNumber.optional(),
  tokenizationConfig: z.string().optional(),
  price: z.array(z.string()).default([]),
  removePrice: z.array(z.string()).default([]),
  unit: z.string().optional(),
  startDate: z.string().optional(),
  file: z.string().optional(),
  strict: z.boolean().default(false),
  dryRun: z.boolean().default(false),
});

export type DefinitionFlags = z.infer<typeof DefinitionFlags>;

const FIELD_FLAGS = ['name', 'matchPattern', 'tokenizer', 'tokenizerModel', 'tokensPerMessage', 'tokensPerName', 'tokenizationConfig', 'unit', 'startDate', 'file'] as const;

export function hasDefinitionChanges(flags: DefinitionFlags): boolean {
  return flags.price.length > 0 || flags.removePrice.length > 0 || FIELD_FLAGS.some((key) => flags[key] !== undefined);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function emptyInput(): ModelDraftInput {
  return { modelName: undefined, matchPattern: undefined, unit: undefined, startDate: undefined, tokenizerId: undefined, tokenizerConfig: undefined, prices: undefined, pricingTiers: undefined };
}

/** Fields a later layer sets replace the earlier ones; prices, given in any form, replace all prices. */
export function overlay(target: ModelDraftInput, layer: ModelDraftInput): ModelDraftInput {
  const out = { ...target };
  for (const key of ['modelName', 'matchPattern', 'unit', 'startDate', 'tokenizerId', 'tokenizerConfig'] as const) {
    if (layer[key] !== undefined) out[key] = layer[key];
  }
  if (layer.prices !== undefined || layer.pricingTiers !== undefined) {
    out.prices = layer.prices;
    out.pricingTiers = layer.pricingTiers;
  }
  return out;
}

/**
 * A stored definition as the first layer. A lone default "Standard" tier (what flat prices become
 * on the server) reads as plain prices, so `--price input=...` edits it and input/output/total go
 * back as flat prices.
 */
export function storedInput(stored: unknown): ModelDraftInput {
  const { input } = normalizeDraftInput(stored);
  // A replace body without tokenizerConfig means the same as null; leave it out.
  if (input.tokenizerConfig === null) input.tokenizerConfig = undefined;
  const tiers = input.pricingTiers;
  if (Array.isArray(tiers) && tiers.length === 1) {
    const [tier] = tiers as unknown[];
    if (isRecord(tier) && tier['isDefault'] === true && tier['name'] === 'Standard' && Array.isArray(tier['conditions']) && tier['conditions'].length === 0 && isRecord(tier['prices'])) {
      return { ...input, prices: { ...tier['prices'] }, pricingTiers: undefined };
    }
  }
  return input;
}

/** Reads the one definition in a --file (JSON or YAML, API or spec shape). */
export async function readDefinitionFile(ctx: Context, path: string): Promise<{ input: ModelDraftInput; issues: DefinitionIssue[] }> {
  const source = path === '-' ? 'stdin' : path;
  let document = await parseJsonOrYaml(await readTextInput(ctx, path), source);
  if (Array.isArray(document) && document.length === 1) document = document[0];
  if (!isRecord(document)) {
    const count = Array.isArray(document) ? `${document.length} entries` : typeof document;
    throw new UsageError(`${source} must hold one model definition (an object), not ${count}`, { hint: 'Create several definitions one file at a time.' });
  }
  return normalizeDraftInput(document);
}

/** `2.5`, `2.5e-6`, or a price per thousand or million units: `2.5/1M` = 0.0000025. */
export function parsePrice(text: string): unknown {
  const match = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(?:\/\s*(1?[MK]))?\s*$/i.exec(text);
  if (!match) return text;
  const value = new Decimal(match[1]!);
  const per = match[2]?.toUpperCase().replace('1', '');
  return (per === 'M' ? value.div(1_000_000) : per === 'K' ? value.div(1_000) : value).toNumber();
}

/** Applies the flags on top of the layers below; `notes` collects what was implied. */
export function applyFlags(base: ModelDraftInput, flags: DefinitionFlags, notes: string[]): ModelDraftInput {
  const input = { ...base };
  if (flags.name !== undefined) input.modelName = flags.name;
  if (flags.matchPattern !== undefined) input.matchPattern = flags.matchPattern;
  if (flags.unit !== undefined) input.unit = flags.unit;
  if (flags.startDate !== undefined) input.startDate = flags.startDate === 'none' ? null : flags.startDate;
  if (flags.tokenizer === 'none') {
    input.tokenizerId = null;
    input.tokenizerConfig = null;
  } else if (flags.tokenizer !== undefined) {
    input.tokenizerId = flags.tokenizer;
  }
  if (flags.tokenizationConfig !== undefined) input.tokenizerConfig = parseJson(flags.tokenizationConfig, '--tokenization-config');
  const config: Record<string, unknown> = {};
  if (flags.tokenizerModel !== undefined) config['tokenizerModel'] = flags.tokenizerModel;
  if (flags.tokensPerMessage !== undefined) config['tokensPerMessage'] = flags.tokensPerMessage;
  if (flags.tokensPerName !== undefined) config['tokensPerName'] = flags.tokensPerName;
  if (Object.keys(config).length > 0) {
    input.tokenizerConfig = { ...(isRecord(input.tokenizerConfig) ? input.tokenizerConfig : {}), ...config };
    // A tokenizer model only means something to the openai tokenizer.
    if ((input.tokenizerId === undefined || input.tokenizerId === null) && flags.tokenizer !== 'none' && flags.tokenizerModel !== undefined) {
      input.tokenizerId = 'openai';
      notes.push('--tokenizer-model implies --tokenizer openai');
    }
  }

  const set = flags.price.map((text) => {
    const [usageType, value] = splitAssignment(text, '--price');
    return [usageType, parsePrice(value)] as const;
  });
  if (set.length === 0 && flags.removePrice.length === 0) return input;
  const edit = (prices: Record<string, unknown>): Record<string, unknown> => {
    const out = { ...prices };
    for (const [usageType, value] of set) out[usageType] = value;
    for (const usageType of flags.removePrice) delete out[usageType];
    return out;
  };
  if (Array.isArray(input.pricingTiers)) {
    // With tiers, --price sets default-tier prices; a removed usage type goes from every tier,
    // since every tier must price the same usage types.
    input.pricingTiers = input.pricingTiers.map((tier: unknown) => {
      if (!isRecord(tier)) return tier;
      const prices = isRecord(tier['prices']) ? tier['prices'] : {};
      if (tier['isDefault'] === true) return { ...tier, prices: edit(prices) };
      const out = { ...prices };
      for (const usageType of flags.removePrice) delete out[usageType];
      return { ...tier, prices: out };
    });
  } else {
    input.prices = edit(isRecord(input.prices) ? input.prices : {});
  }
  return input;
}

/** `(?i)^<name>$` with the name's regex characters escaped: this name exactly, in any case. */
export function exactPattern(name: string): string {
  return `(?i)^${name.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')}$`;
}

const FLAG_FOR: Record<string, string> = {
  modelName: '--name',
  matchPattern: '--match-pattern',
  unit: '--unit',
  startDate: '--start-date',
  tokenizerId: '--tokenizer',
  'tokenizerConfig.tokenizerModel': '--tokenizer-model',
  tokenizerConfig: '--tokenization-config',
};

function where(issue: DefinitionIssue, fromFile: boolean): string {
  if (!issue.path) return '';
  if (fromFile) return `${issue.path}: `;
  if (issue.code === 'chat-config-missing') return '--tokens-per-message, --tokens-per-name: ';
  if (issue.path.startsWith('prices.')) return `--price ${issue.path.slice('prices.'.length)}: `;
  const flag = FLAG_FOR[issue.path] ?? FLAG_FOR[issue.path.split('.')[0]!];
  return flag ? `${flag}: ` : `${issue.path}: `;
}

const HINTS: Record<string, string> = {
  'chat-config-missing': 'Add --tokens-per-message 3 --tokens-per-name 1 (what every built-in OpenAI chat model uses).',
  'tokenizer-model-unsupported': 'For gpt-4o-mini and newer OpenAI models use --tokenizer-model gpt-4o, as the built-in definitions do.',
  'tokenizer-config-missing': 'Add --tokenizer-model (e.g. gpt-4o), or use --tokenizer claude or none.',
  'no-prices': 'Add prices with --price, in USD per unit or per million: --price input=2.5/1M --price output=10/1M',
  'total-price-replaces-sum': 'Price input and output, or only total, unless a total that replaces their sum is what you mean.',
  'invalid-regex': 'Patterns are Postgres regular expressions, e.g. (?i)^(openai/)?gpt-4o$',
  'tier-condition-unknown': 'The server knows a kind of condition this llmobs does not: change this definition in the Langfuse UI, with a raw request (llmobs api), or with a newer llmobs.',
};

export interface CheckedDefinition {
  draft: ModelDraft;
  body: CreateModelBody;
  issues: DefinitionIssue[];
}

/** Checks the merged definition; prints warnings; throws a usage error (nothing sent) on errors. */
export function checkForSending(ctx: Context, input: ModelDraftInput, options: { strict: boolean; fromFile: boolean; earlier?: DefinitionIssue[] }): CheckedDefinition {
  const checked = checkModelDraft(input, { unitDefault: 'TOKENS' });
  const issues = [...(options.earlier ?? []), ...checked.issues, ...(checked.draft ? checkPriceMagnitudes(checked.draft) : [])];
  const errors = issues.filter((i) => i.severity === 'error');
  const warnings = issues.filter((i) => i.severity === 'warning');
  for (const w of warnings) ctx.out.warn(`${where(w, options.fromFile)}${w.message} [${w.code}]`);
  const list = (xs: DefinitionIssue[]) => xs.map((i) => `  - ${where(i, options.fromFile)}${i.message} [${i.code}]`).join('\n');
  if (errors.length > 0 || !checked.draft) {
    const hints = [...new Set(errors.map((e) => HINTS[e.code]).filter((h): h is string => h !== undefined))];
    throw new UsageError(`the model definition was not sent: ${errors.length === 1 ? 'a problem' : `${errors.length} problems`} the server would reject or misread:\n${list(errors)}`, {
      hint: hints.join('\n') || undefined,
      details: { issues },
    });
  }
  if (options.strict && warnings.length > 0) {
    throw new UsageError(`the model definition was not sent: --strict refuses ${warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`}:\n${list(warnings)}`, {
      hint: 'Fix them, or leave out --strict to send the definition anyway.',
      details: { issues },
    });
  }
  return { draft: checked.draft, body: buildCreateModelBody(checked.draft), issues };
}

/**
 * The definition to send, from its layers: `base` (the stored definition for update), then the
 * --file's definition, then the flags. What the layers imply is said on stderr; then the whole is
 * checked as checkForSending does. With `exactPatternByDefault` (create), a definition with a name
 * and no pattern matches that name exactly, in any case.
 */
export function layeredDefinition(ctx: Context, base: ModelDraftInput, file: { input: ModelDraftInput; issues: DefinitionIssue[] } | undefined, flags: DefinitionFlags, options: { exactPatternByDefault?: boolean } = {}): CheckedDefinition {
  const notes: string[] = [];
  let input = applyFlags(file ? overlay(base, file.input) : base, flags, notes);
  if (options.exactPatternByDefault && input.matchPattern === undefined && typeof input.modelName === 'string' && input.modelName !== '') {
    input = { ...input, matchPattern: exactPattern(input.modelName) };
    notes.push(`no match pattern given: using ${input.matchPattern as string} (this name exactly, in any case)`);
  }
  for (const note of notes) ctx.out.info(note);
  return checkForSending(ctx, input, { strict: flags.strict, fromFile: file !== undefined, earlier: file?.issues });
}

/** Whether `body` says what the stored definition (as `storedInput` reads it) already says. */
export function sameAsStored(stored: ModelDraftInput, body: CreateModelBody): boolean {
  const before = checkModelDraft(stored, { unitDefault: 'TOKENS' }).draft;
  return before !== undefined && sameBody(buildCreateModelBody(before), body);
}

/** Same definition? Key order and the spelling of the start date do not matter. */
export function sameBody(a: CreateModelBody, b: CreateModelBody): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (isRecord(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
    return value;
  };
  const normal = (body: CreateModelBody) => ({ ...body, startDate: body.startDate ? new Date(body.startDate).toISOString() : undefined });
  return JSON.stringify(canonical(normal(a))) === JSON.stringify(canonical(normal(b)));
}
