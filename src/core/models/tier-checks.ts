import { checkRegexSafety } from '../regex/index.js';
import type { PricingTierInput } from './draft.js';
import type { DefinitionIssue } from './issues.js';
import { error } from './issues.js';
import type { KnownCondition } from './types.js';
import { UnknownCondition, USAGE_OPERATORS } from './types.js';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks one price map (flat or a tier's); returns the valid prices. */
export function checkPrices(prices: Record<string, unknown>, path: string, issues: DefinitionIssue[]): Record<string, number> {
  const out: [string, number][] = [];
  for (const [usageType, value] of Object.entries(prices)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      issues.push(error('price-not-number', `The price of "${usageType}" must be a number, got ${JSON.stringify(value)}.`, `${path}.${usageType}`));
    } else if (value < 0) {
      issues.push(error('price-negative', `The price of "${usageType}" is negative (${value}).`, `${path}.${usageType}`));
    } else {
      out.push([usageType, value]);
    }
  }
  return Object.fromEntries(out);
}

function checkCondition(c: unknown, path: string, issues: DefinitionIssue[]): KnownCondition | null {
  // Read from a newer server: there is nothing llmobs could check, and a server that knows only
  // usage and attribute conditions would refuse it.
  if (c instanceof UnknownCondition) {
    issues.push(error('tier-condition-unknown', `A condition of a kind llmobs does not know (${c.text()}); llmobs can neither check nor send it.`, path));
    return null;
  }
  if (!isRecord(c)) {
    issues.push(error('tier-condition-invalid', 'A condition must be an object.', path));
    return null;
  }
  if ('usageDetailPattern' in c) {
    const { usageDetailPattern: pattern, operator, value, caseSensitive } = c;
    let ok = true;
    if (typeof pattern !== 'string' || pattern.length < 1) {
      issues.push(error('tier-condition-invalid', 'usageDetailPattern must be a non-empty string.', `${path}.usageDetailPattern`));
      ok = false;
    } else if (pattern.length > 200) {
      issues.push(error('tier-usage-regex-too-long', `usageDetailPattern is ${pattern.length} characters long; at most 200 are allowed.`, `${path}.usageDetailPattern`));
      ok = false;
    } else {
      try {
        new RegExp(pattern);
        const safety = checkRegexSafety(pattern);
        if (!safety.safe) {
          issues.push(error('tier-usage-regex-unsafe', `usageDetailPattern ${JSON.stringify(pattern)} is rejected as unsafe: ${safety.reason}.`, `${path}.usageDetailPattern`));
          ok = false;
        }
      } catch (e) {
        issues.push(error('tier-usage-regex-invalid', `usageDetailPattern ${JSON.stringify(pattern)} is not a valid JavaScript regex: ${(e as Error).message}.`, `${path}.usageDetailPattern`));
        ok = false;
      }
    }
    if (!(USAGE_OPERATORS as readonly unknown[]).includes(operator)) {
      issues.push(error('tier-condition-invalid', `operator must be one of ${USAGE_OPERATORS.join(', ')}.`, `${path}.operator`));
      ok = false;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      issues.push(error('tier-condition-invalid', 'value must be a number >= 0.', `${path}.value`));
      ok = false;
    }
    if (caseSensitive !== undefined && typeof caseSensitive !== 'boolean') {
      issues.push(error('tier-condition-invalid', 'caseSensitive must be a boolean.', `${path}.caseSensitive`));
      ok = false;
    }
    if (!ok) return null;
    return {
      usageDetailPattern: pattern as string,
      operator: operator as (typeof USAGE_OPERATORS)[number],
      value: value as number,
      caseSensitive: (caseSensitive as boolean | undefined) ?? false,
    };
  }
  const { source, key, operator, values } = c;
  let ok = true;
  if (source !== 'model_parameters' && source !== 'metadata') {
    issues.push(error('tier-condition-invalid', 'A condition needs usageDetailPattern, or source "model_parameters" or "metadata".', `${path}.source`));
    ok = false;
  }
  if (typeof key !== 'string' || key.length < 1 || key.length > 200) {
    issues.push(error('tier-condition-invalid', 'key must be a string of 1 to 200 characters.', `${path}.key`));
    ok = false;
  }
  if (operator !== 'in') {
    issues.push(error('tier-condition-invalid', 'The operator of an attribute condition must be "in".', `${path}.operator`));
    ok = false;
  }
  if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string')) {
    issues.push(error('tier-condition-invalid', 'values must be a non-empty array of strings.', `${path}.values`));
    ok = false;
  }
  if (!ok) return null;
  return { source: source as 'model_parameters' | 'metadata', key: key as string, operator: 'in', values: values as string[] };
}

/** The server's `validatePricingTiers` rules (API §3.4); returns the tiers when they pass. */
export function checkPricingTiers(raw: unknown, issues: DefinitionIssue[]): PricingTierInput[] | null {
  const before = issues.length;
  if (!Array.isArray(raw) || raw.length === 0) {
    issues.push(error('tiers-invalid', 'pricingTiers must be a non-empty array.', 'pricingTiers'));
    return null;
  }
  const tiers: PricingTierInput[] = [];
  raw.forEach((t, i) => {
    const path = `pricingTiers.${i}`;
    if (!isRecord(t)) {
      issues.push(error('tiers-invalid', 'A pricing tier must be an object.', path));
      return;
    }
    const name = typeof t['name'] === 'string' ? t['name'].trim() : undefined;
    if (name === undefined || name.length < 1 || name.length > 100) {
      issues.push(error('tier-name-invalid', 'A tier name must be 1 to 100 characters (after trimming).', `${path}.name`));
    }
    const isDefault = t['isDefault'] ?? false;
    if (typeof isDefault !== 'boolean') issues.push(error('tiers-invalid', 'isDefault must be a boolean.', `${path}.isDefault`));
    const priority = t['priority'];
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 999) {
      issues.push(error('tier-priority-invalid', 'priority must be an integer from 0 to 999.', `${path}.priority`));
    }
    const rawConditions = t['conditions'] ?? [];
    const conditions: KnownCondition[] = [];
    if (!Array.isArray(rawConditions)) issues.push(error('tier-condition-invalid', 'conditions must be an array.', `${path}.conditions`));
    else rawConditions.forEach((c, j) => {
      const checked = checkCondition(c, `${path}.conditions.${j}`, issues);
      if (checked) conditions.push(checked);
    });
    const rawPrices = t['prices'];
    const prices = isRecord(rawPrices) ? checkPrices(rawPrices, `${path}.prices`, issues) : {};
    if (!isRecord(rawPrices) || Object.keys(rawPrices).length === 0) {
      issues.push(error('tier-prices-missing', `Tier "${name ?? i}" has no prices.`, `${path}.prices`));
    }
    tiers.push({ name: name ?? '', isDefault: isDefault === true, priority: typeof priority === 'number' ? priority : -1, conditions, prices });
    if (isDefault === true && priority !== 0) issues.push(error('tier-default-priority', 'The default tier must have priority 0.', `${path}.priority`));
    if (isDefault === true && Array.isArray(rawConditions) && rawConditions.length > 0) {
      issues.push(error('tier-default-conditions', 'The default tier must have no conditions.', `${path}.conditions`));
    }
    if (isDefault !== true && Array.isArray(rawConditions) && rawConditions.length === 0) {
      issues.push(error('tier-conditions-missing', `Tier "${name ?? i}" is not the default tier, so it needs at least one condition.`, `${path}.conditions`));
    }
  });

  const defaults = tiers.filter((t) => t.isDefault);
  if (defaults.length !== 1) {
    issues.push(error('tier-default-count', `Exactly one tier must be the default tier; found ${defaults.length}.`, 'pricingTiers'));
  }
  const dup = <T>(xs: T[]): T[] => xs.filter((x, i) => xs.indexOf(x) !== i);
  for (const n of new Set(dup(tiers.map((t) => t.name)))) issues.push(error('tier-name-duplicate', `Tier name "${n}" is used more than once.`, 'pricingTiers'));
  for (const p of new Set(dup(tiers.map((t) => t.priority).filter((p) => p >= 0)))) {
    issues.push(error('tier-priority-duplicate', `Priority ${p} is used by more than one tier.`, 'pricingTiers'));
  }
  const reference = defaults[0];
  if (reference) {
    const keys = Object.keys(reference.prices).sort().join(',');
    raw.forEach((t, i) => {
      if (!isRecord(t) || !isRecord(t['prices']) || t['isDefault'] === true) return;
      const own = Object.keys(t['prices']).sort().join(',');
      if (own !== keys) {
        issues.push(error('tier-price-keys-mismatch', `Tier "${tiers[i]?.name}" prices [${own}] but the default tier prices [${keys}]; every tier must price the same usage types.`, `pricingTiers.${i}.prices`));
      }
    });
  }
  return issues.length === before ? tiers : null;
}
