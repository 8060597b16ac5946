// How model definitions read on a terminal: prices per million tokens (the API keeps USD per
// unit; --json output keeps those numbers), tokenizers in words, tiers with their conditions;
// and what list, match and lint print of them.
import type { Context } from '../../context.js';
import { type MatchResult, noMatchMessage } from '../../core/models/match.js';
import { lossText } from '../../core/models/match-view.js';
import type { Finding } from '../../core/models/lint.js';
import type { ModelDefinition, ModelUnit, PricingTierCondition, UnknownCondition } from '../../core/models/types.js';
import { defaultPrices, isUnknownCondition, isUsageCondition } from '../../core/models/types.js';
import { resolveTokenizer } from '../../tokenizer/count-rules.js';
import { formatUsd } from '../../output/format.js';
import { type DefinitionsOrigin, describeOrigin, listNamesHint } from '../../model-definitions/index.js';

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

/** A list of definitions, one a row; on a terminal cut to fit its width. */
export function printModelTable(ctx: Context, items: readonly ModelDefinition[]): void {
  if (items.length === 0) {
    ctx.out.info('No model definitions.');
    return;
  }
  // On a terminal the table fits its width: long patterns and price lists are cut, and on a narrow
  // one the tokenizer, then the pattern, are left out (source and id, needed to act on a row,
  // never are). Piped output and --json keep everything.
  const cut = ctx.out.table(
    [
      { header: 'NAME', style: (text, c) => c.bold(text), shrinkTo: 12 },
      { header: 'MATCH PATTERN', shrinkTo: 14, dropOrder: 2 },
      { header: 'PRICES (USD)', shrinkTo: 12 },
      { header: 'TOKENIZER', shrinkTo: 9, dropOrder: 1 },
      { header: 'SOURCE', style: (text, c) => (text === 'custom' ? c.cyan(text) : c.dim(text)) },
      { header: 'ID', style: (text, c) => c.dim(text) },
    ],
    items.map((m) => [m.modelName, m.matchPattern, pricesSummary(m), tokenizerShort(m), sourceText(m), m.id]),
  );
  if (cut) ctx.out.hint('Cut to fit the terminal (… marks a cut value; narrow terminals leave out columns): see a definition in full with llmobs models get <id>, every field with --json.');
}

/** What `models match` found, for people: the winner with its tokenizer and prices, and who lost. */
export function printMatch(ctx: Context, result: MatchResult, why: string | null, suggestions: readonly string[] = []): void {
  const winner = result.winner?.definition;
  if (!winner) {
    ctx.out.keyValues([
      ['Model name', result.model],
      ['Matches', result.model === '' ? 'nothing: the server does no lookup for an empty model name' : 'no definition'],
      ...(suggestions.length > 0 ? [['Closest names', suggestions.join(', ')] as [string, string]] : []),
    ]);
    ctx.out.line();
    ctx.out.line('The server would compute no cost and count no tokens for such generations; usage sent with them is still stored.');
    ctx.out.line('Add a definition with: llmobs models create --name <name> --match-pattern <regex> --price input=...');
    return;
  }
  const tokenizer = tokenizerDescription(winner);
  ctx.out.keyValues([
    ['Model name', result.model],
    ['Matches', `${ctx.out.c.bold(winner.modelName)} (${result.winner!.source}, id ${winner.id})`],
    ['Why', why],
    ['Match pattern', winner.matchPattern],
    ['Start date', winner.startDate ?? 'none'],
    ['Tokenizer', tokenizer.problem ? ctx.out.c.yellow(tokenizer.text) : tokenizer.text],
  ]);
  ctx.out.line();
  printTiers(ctx, winner);
  if (result.losers.length > 0) {
    ctx.out.line();
    ctx.out.heading(`Also matching, not chosen (${result.losers.length})`);
    ctx.out.table(
      [{ header: 'NAME' }, { header: 'SOURCE' }, { header: 'START DATE' }, { header: 'WHY NOT' }, { header: 'ID', style: (t, c) => c.dim(t) }],
      result.losers.map((l) => [l.definition.modelName, l.source, l.definition.startDate ?? '', lossText(l, winner), l.definition.id]),
    );
  }
}

/** What `models match` says on stderr: the definitions it used, no match (the names to suggest), and doubts. */
export function printMatchNotes(ctx: Context, result: MatchResult, origin: DefinitionsOrigin, suggestions: readonly string[]): void {
  const model = result.model;
  ctx.out.info(`Matched against ${describeOrigin(origin)}.`);
  if (result.winner === null && model !== '') {
    ctx.out.warn(noMatchMessage(model, suggestions));
    if (suggestions.length === 0) ctx.out.hint(listNamesHint(origin));
  }
  if (model !== model.trim()) ctx.out.warn('the name has leading or trailing spaces; the server matches the name exactly as sent, spaces included');
  for (const skipped of result.unevaluated.filter((u) => u.affectsResult)) {
    ctx.out.warn(`the pattern of "${skipped.definition.modelName}" (${skipped.definition.id}) ${skipped.reason}; it could change the result`);
  }
  if (result.tiedWith.length > 0) {
    ctx.out.warn(`the server's choice is undefined: ${result.tiedWith.length + 1} definitions tie (same kind, same start date). Give one a later start date to decide.`);
  }
}

/** `models lint`'s findings: grouped by definition on a terminal, a table when piped. */
export function printFindings(ctx: Context, findings: readonly Finding[]): void {
  if (findings.length === 0) return;
  if (!ctx.out.isTTY) {
    ctx.out.table(
      [{ header: 'NAME' }, { header: 'ID' }, { header: 'LEVEL' }, { header: 'CODE' }, { header: 'FIELD' }, { header: 'MESSAGE' }],
      findings.map((f) => [f.modelName, f.id, f.severity, f.code, f.path, f.message]),
    );
    return;
  }
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.modelName ?? ''}${f.id ? ` (${f.id})` : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const [title, group] of groups) {
    ctx.out.heading(title);
    for (const f of group) {
      const level = f.severity === 'error' ? ctx.out.c.red('error  ') : ctx.out.c.yellow('warning');
      ctx.out.line(`  ${level}  ${f.message} ${ctx.out.c.dim(`[${f.code}]`)}`);
    }
  }
}
