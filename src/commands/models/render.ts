// How model definitions read on a terminal: prices per million tokens (the API keeps USD per
// unit; --json output keeps those numbers), tokenizers in words, tiers with their conditions.
import type { Context } from '../../context.js';
import type { ModelDefinition, ModelUnit, PricingTier, PricingTierCondition, UnknownCondition } from '../../core/models/types.js';
import { isUnknownCondition, isUsageCondition } from '../../core/models/types.js';
import { resolveTokenizer } from '../../tokenizer/count-rules.js';
import { formatUsd } from '../../output/format.js';

const PER_UNIT: Record<ModelUnit, string> = {
  TOKENS: 'token',
  CHARACTERS: 'character',
  MILLISECONDS: 'ms',
  SECONDS: 'second',
  REQUESTS: 'request',
  IMAGES: 'image',
};

/** Token and character prices read per million; others per unit. A missing unit means tokens. */
export function priceText(price: number, unit: ModelUnit | null): string {
  const u = unit ?? 'TOKENS';
  if (u === 'TOKENS' || u === 'CHARACTERS') return `${formatUsd(price * 1e6, 'price')}/1M`;
  return `${formatUsd(price, 'price')}/${PER_UNIT[u]}`;
}

export function unitWord(unit: ModelUnit | null): string {
  const u = unit ?? 'TOKENS';
  return u === 'TOKENS' || u === 'CHARACTERS' ? `1M ${PER_UNIT[u]}s` : PER_UNIT[u];
}

export function defaultTier(def: Pick<ModelDefinition, 'pricingTiers'>): PricingTier | undefined {
  return def.pricingTiers.find((t) => t.isDefault);
}

/** The default tier's prices (or the legacy flat ones), usage type -> USD per unit. */
export function defaultPrices(def: ModelDefinition): Record<string, number> {
  const tier = defaultTier(def);
  if (tier) return tier.prices;
  return Object.fromEntries(Object.entries(def.prices).map(([k, v]) => [k, v.price]));
}

export function pricesSummary(def: ModelDefinition): string {
  const entries = Object.entries(defaultPrices(def)).map(([usage, price]) => `${usage} ${priceText(price, def.unit)}`);
  const extra = def.pricingTiers.filter((t) => !t.isDefault).length;
  return `${entries.join(', ')}${extra ? ` (+${extra} tier${extra > 1 ? 's' : ''})` : ''}`;
}

export function tokenizerShort(def: Pick<ModelDefinition, 'tokenizerId' | 'tokenizerConfig'>): string {
  if (!def.tokenizerId) return '';
  const model = typeof def.tokenizerConfig === 'object' && def.tokenizerConfig !== null ? (def.tokenizerConfig as Record<string, unknown>)['tokenizerModel'] : undefined;
  return typeof model === 'string' ? `${def.tokenizerId} (${model})` : def.tokenizerId;
}

/** What the server does with the tokenizer settings, in words, and whether that is a problem. */
export function tokenizerDescription(def: Pick<ModelDefinition, 'tokenizerId' | 'tokenizerConfig'>): { text: string; problem: boolean } {
  const r = resolveTokenizer(def);
  if (!r.ok) {
    if (r.reason === 'no-tokenizer') return { text: 'none: the server counts no tokens itself, usage must come with the generation', problem: false };
    return { text: `${def.tokenizerId}: ${r.message}`, problem: true };
  }
  if (r.tokenizer.id === 'claude') return { text: 'claude (@anthropic-ai/tokenizer; approximate for Claude 3 and later)', problem: false };
  const chat = r.chat
    ? `, chat messages: ${r.chat.tokensPerMessage} per message, ${r.chat.tokensPerName} per name`
    : r.chatConfigMissing
      ? ': chat-message input gets no count (tokensPerMessage/tokensPerName missing)'
      : '';
  return { text: `openai: ${r.tokenizer.tokenizerModel} (${r.tokenizer.encoding})${chat}`, problem: r.chatConfigMissing };
}

export function sourceText(def: Pick<ModelDefinition, 'isLangfuseManaged'>): string {
  return def.isLangfuseManaged ? 'built-in' : 'custom';
}

/** A condition of a kind llmobs does not know, as the server sent it. */
export function unknownConditionText(c: UnknownCondition): string {
  return `a condition llmobs does not know: ${c.text()}`;
}

export function conditionText(c: PricingTierCondition): string {
  if (isUnknownCondition(c)) return unknownConditionText(c);
  if (isUsageCondition(c)) {
    const ops = { gt: '>', gte: '>=', lt: '<', lte: '<=', eq: '=', neq: '!=' } as const;
    return `usage matching /${c.usageDetailPattern}/${c.caseSensitive ? '' : 'i'} ${ops[c.operator]} ${c.value}`;
  }
  return `${c.source}.${c.key} in [${c.values.join(', ')}]`;
}

function priceLine(usage: string, price: number, unit: ModelUnit | null): string {
  return `  ${usage.padEnd(28)} ${priceText(price, unit).padStart(14)}  ${price} per ${PER_UNIT[unit ?? 'TOKENS']}`;
}

/** The pricing tiers, in the order the server tries them, each with all its prices. */
export function printTiers(ctx: Context, def: ModelDefinition): void {
  ctx.out.heading(`Prices (USD per ${unitWord(def.unit)}, then per ${PER_UNIT[def.unit ?? 'TOKENS']})`);
  const tiers = [...def.pricingTiers].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.priority - b.priority);
  if (tiers.length === 0) {
    const flat = defaultPrices(def);
    if (Object.keys(flat).length === 0) ctx.out.line(`no prices: the server computes no cost`);
    for (const [usage, price] of Object.entries(flat)) ctx.out.line(priceLine(usage, price, def.unit));
    return;
  }
  for (const tier of tiers) {
    const when = tier.isDefault ? 'default, used when no other tier applies' : `priority ${tier.priority}, when ${tier.conditions.map(conditionText).join(' and ')}`;
    ctx.out.line(`${ctx.out.isTTY ? ctx.out.c.bold(tier.name) : tier.name} (${when})`);
    for (const [usage, price] of Object.entries(tier.prices)) ctx.out.line(priceLine(usage, price, def.unit));
  }
}

/** One definition in full: identity, pattern, unit, tokenizer, and every pricing tier. */
export function printDefinition(ctx: Context, def: ModelDefinition): void {
  const tokenizer = tokenizerDescription(def);
  ctx.out.keyValues([
    ['ID', def.id],
    ['Name', def.modelName],
    ['Source', def.isLangfuseManaged ? 'built-in (Langfuse-managed)' : 'custom (this project)'],
    ['Match pattern', def.matchPattern],
    ['Unit', def.unit ?? 'not set (tokens)'],
    ['Start date', def.startDate ?? 'none'],
    ['Tokenizer', tokenizer.problem ? ctx.out.c.yellow(tokenizer.text) : tokenizer.text],
    ['Created', def.createdAt],
  ]);
  ctx.out.line();
  printTiers(ctx, def);
}

/** After a change: the definition on a terminal, its id when piped (for scripts), the object with --json. */
export function printChanged(ctx: Context, def: ModelDefinition, message: string): void {
  if (ctx.globals.json) ctx.out.printJson(def);
  else if (ctx.out.isTTY) printDefinition(ctx, def);
  else ctx.out.line(def.id);
  ctx.out.success(message);
}
