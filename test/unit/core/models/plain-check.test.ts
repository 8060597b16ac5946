import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainDefinitionList } from '../../../../src/core/models/plain-check.js';
import { modelDefinitionSchema } from '../../../../src/core/models/schemas.js';
import { UnknownCondition } from '../../../../src/core/models/types.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';

const schema = modelDefinitionSchema.loose().array();

/** What the check stands for: the schema reads the list, knows every condition, and changes nothing. */
function plainBySchema(raw: unknown): boolean {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return false;
  if (parsed.data.some((d) => d.pricingTiers.some((t) => t.conditions.some((c) => c instanceof UnknownCondition)))) return false;
  return isDeepStrictEqual(parsed.data, raw);
}

/** Definitions as the cache holds them: the schema's output, through JSON. */
const stored = () => JSON.parse(JSON.stringify(schema.parse(builtInDefinitions()))) as Array<Record<string, unknown>>;

const tiered = {
  ...stored()[0],
  pricingTiers: [
    { id: 't0', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1e-6 } },
    {
      id: 't1',
      name: 'Long',
      isDefault: false,
      priority: 1,
      conditions: [
        { usageDetailPattern: 'input', operator: 'gt', value: 200000, caseSensitive: false },
        { source: 'metadata', key: 'tier', operator: 'in', values: ['a', 'b'] },
      ],
      prices: { input: 2e-6 },
    },
  ],
};

// Any JSON value, and the values a field most often holds.
const jsonValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'TOKENS', 'gt', 'in', 'metadata', [], {}, { price: 1 }, ['x'], [1]),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Every path to a value in a JSON value, and that value's container and key. */
function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

function changed(list: unknown, path: Array<string | number>, how: 'set' | 'delete' | 'add', value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(list)) as unknown;
  if (path.length === 0) return how === 'set' ? value : copy;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (how === 'set') parent[last] = value;
  else if (how === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (Array.isArray(target)) target.push(value);
    else if (target !== null && typeof target === 'object') (target as Record<string, unknown>)['extra'] = value;
    else parent[last] = value;
  }
  return copy;
}

describe('isPlainDefinitionList', () => {
  it('takes the definitions the schema gives, through JSON', () => {
    expect(isPlainDefinitionList(stored())).toBe(true);
    expect(isPlainDefinitionList([tiered])).toBe(true);
    expect(isPlainDefinitionList([])).toBe(true);
  });

  it('agrees with the schema on every change of one value, key or element', () => {
    const base = [stored()[0], tiered, stored()[1]];
    const all = paths(base);
    fc.assert(
      fc.property(fc.nat(all.length - 1), fc.constantFrom('set', 'delete', 'add'), jsonValue, (index, how, value) => {
        const raw = changed(base, all[index]!, how as 'set' | 'delete' | 'add', value);
        expect(isPlainDefinitionList(raw), JSON.stringify({ path: all[index], how, value })).toBe(plainBySchema(raw));
      }),
      { numRuns: 20_000 },
    );
  });
});
