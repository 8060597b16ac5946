// The local server's model endpoints, against the rules of API.md section 3 and NEWER-API.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { checkResponse } from '../../../helpers/contract.js';

let server: RunningServer;
let old: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true, now: () => new Date('2026-03-01T12:00:00.000Z') });
  old = await startServer({ port: 0, ephemeral: true, apiVersion: '4.16.0' });
});
afterAll(async () => {
  await server.close();
  await old.close();
});

async function call(method: string, path: string, body?: unknown, target = server, auth = true) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth) headers.authorization = `Basic ${Buffer.from(`${target.keys.publicKey}:${target.keys.secretKey}`).toString('base64')}`;
  const response = await fetch(target.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : undefined;
  if (response.status < 300) expect(checkResponse(method, path.split('?')[0]!, response.status, json)).toEqual([]);
  return { status: response.status, body: json };
}

const flat = (name: string, extra: Record<string, unknown> = {}) => ({ modelName: name, matchPattern: `(?i)^${name}$`, unit: 'TOKENS', inputPrice: 0.000001, outputPrice: 0.000002, ...extra });
const BUILT_IN_COUNT = builtInDefinitions().length;

describe('POST /api/public/models', () => {
  it('creates a project model from flat prices: a default "Standard" tier, 200, isLangfuseManaged false', async () => {
    const created = await call('POST', '/api/public/models', flat('flat-one', { startDate: '2025-01-01', tokenizerId: 'claude' }));
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(created.body).toEqual({
      id,
      modelName: 'flat-one',
      matchPattern: '(?i)^flat-one$',
      startDate: '2025-01-01T00:00:00.000Z',
      unit: 'TOKENS',
      inputPrice: 0.000001,
      outputPrice: 0.000002,
      totalPrice: null,
      tokenizerId: 'claude',
      tokenizerConfig: null,
      isLangfuseManaged: false,
      createdAt: '2026-03-01T12:00:00.000Z',
      prices: { input: { price: 0.000001 }, output: { price: 0.000002 } },
      pricingTiers: [{ id: `${id}_tier_default`, name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000001, output: 0.000002 } }],
    });
    expect((await call('GET', `/api/public/models/${id}`)).body).toEqual(created.body);
  });

  it('stores the spec shape (name, match_pattern, tokenizer, tokenization_config, pricing) as the API shape', async () => {
    const spec = {
      name: 'spec-model',
      match_pattern: '(?i)^spec-model$',
      tokenizer: 'openai',
      tokenization_config: { tokenizerModel: 'gpt-4', tokensPerMessage: 3, tokensPerName: 1 },
      pricing: { input: 0.00001, output: 0.00003, cached_tokens: 0.000005 },
    };
    const created = await call('POST', '/api/public/models', spec);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      modelName: 'spec-model',
      matchPattern: '(?i)^spec-model$',
      unit: 'TOKENS',
      tokenizerId: 'openai',
      tokenizerConfig: spec.tokenization_config,
      inputPrice: 0.00001,
      outputPrice: 0.00003,
      prices: { input: { price: 0.00001 }, output: { price: 0.00003 }, cached_tokens: { price: 0.000005 } },
      pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: spec.pricing }],
    });
  });

  it('keeps explicit tiers, sorted by priority, and derives prices from the default tier', async () => {
    const tiers = [
      { name: 'Large', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 1000 }], prices: { input: 2e-6, output: 4e-6 } },
      { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1e-6, output: 2e-6 } },
    ];
    const created = await call('POST', '/api/public/models', { modelName: 'tiered', matchPattern: '^tiered$', unit: 'TOKENS', pricingTiers: tiers });
    expect(created.status).toBe(200);
    expect(created.body.pricingTiers.map((t: { name: string }) => t.name)).toEqual(['Standard', 'Large']);
    expect(created.body.pricingTiers[1].conditions).toEqual([{ usageDetailPattern: 'input', operator: 'gt', value: 1000, caseSensitive: false }]);
    expect(created.body).toMatchObject({ inputPrice: 1e-6, outputPrice: 2e-6, prices: { input: { price: 1e-6 }, output: { price: 2e-6 } } });
  });

  it('takes a body with the API\'s fields as the API shape, dropping spec-named extras', async () => {
    const created = await call('POST', '/api/public/models', flat('api-with-extras', { name: 'other', pricing: { input: 5 } }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ modelName: 'api-with-extras', inputPrice: 0.000001 });
  });

  it('drops unknown fields silently, as a Langfuse server does (a misspelt tokenizationConfig is lost)', async () => {
    const created = await call('POST', '/api/public/models', flat('dropped', { tokenizationConfig: { tokenizerModel: 'gpt-4' }, colour: 'red' }));
    expect(created.status).toBe(200);
    expect(created.body.tokenizerConfig).toBeNull();
    expect(created.body).not.toHaveProperty('colour');
  });

  it('answers 400 the way the server does', async () => {
    const { unit: _unit, ...noUnit } = flat('no-unit');
    const missing = await call('POST', '/api/public/models', noUnit);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Invalid request data');
    expect(missing.body.error.map((i: { path: unknown[] }) => i.path)).toEqual([['unit']]);

    expect((await call('POST', '/api/public/models', flat('bad-regex', { matchPattern: '[][' }))).body).toEqual({
      message: 'matchPattern is not a valid regex pattern (Postgres)',
      error: 'InvalidRequestError',
    });
    await call('POST', '/api/public/models', flat('taken'));
    expect((await call('POST', '/api/public/models', flat('taken'))).body).toEqual({ message: "Model name 'taken' already exists in project", error: 'InvalidRequestError' });

    const neither = await call('POST', '/api/public/models', { modelName: 'n', matchPattern: 'n', unit: 'TOKENS' });
    expect(neither.status).toBe(400);
    expect(neither.body.error[0].message).toContain('Must provide either');
    const tier = { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1 } };
    // PostModelsV1Body's superRefine (web/src/features/public-api/types/models.ts) says "not both".
    expect((await call('POST', '/api/public/models', flat('both', { pricingTiers: [tier] }))).body.error[0].message).toBe(
      'Must provide either flat prices (inputPrice/outputPrice/totalPrice) OR pricingTiers, not both',
    );
    const total = await call('POST', '/api/public/models', flat('total', { totalPrice: 1 }));
    expect(total.body.error).toEqual([expect.objectContaining({ path: ['totalPrice'] })]);
    const twoDefaults = await call('POST', '/api/public/models', { modelName: 't', matchPattern: 't', unit: 'TOKENS', pricingTiers: [tier, { ...tier, name: 'Other', priority: 1 }] });
    expect(twoDefaults.status).toBe(400);
    expect(twoDefaults.body.error.every((i: { path: unknown[] }) => JSON.stringify(i.path) === '["pricingTiers"]')).toBe(true);
    expect(twoDefaults.body.error.map((i: { message: string }) => i.message)).toEqual(['Only one pricing tier can have isDefault: true, found 2']);
    const negative = await call('POST', '/api/public/models', flat('neg', { inputPrice: -1 }));
    expect(negative.body.error.map((i: { path: unknown[] }) => i.path)).toEqual([['inputPrice']]);
    expect((await call('POST', '/api/public/models', [1])).status).toBe(400);
  });

  // Each message is the service's: PricingTierInputSchema and validatePricingTiers
  // (packages/shared/src/features/model-pricing/validation.ts), one issue at path pricingTiers for
  // the first rule broken, and PostModelsV1Body's own (web/src/features/public-api/types/models.ts).
  it('words its 400 answers about prices and pricing tiers as the service does', async () => {
    const standard = { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1, output: 2 } };
    const large = { name: 'Large', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 100 }], prices: { input: 2, output: 4 } };
    const refusal = async (body: Record<string, unknown>) => {
      const answer = await call('POST', '/api/public/models', { modelName: 'tiers', matchPattern: 'tiers', unit: 'TOKENS', ...body });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Invalid request data');
      return answer.body.error.map((issue: { path: unknown[]; message: string }) => [issue.path.join('.'), issue.message]);
    };
    const tiers = (...pricingTiers: unknown[]) => refusal({ pricingTiers });
    expect(await refusal({})).toEqual([['', 'Must provide either flat prices (inputPrice/outputPrice/totalPrice) OR pricingTiers']]);
    expect(await refusal({ inputPrice: 1, totalPrice: 2 })).toEqual([['totalPrice', 'If input and/or output price is set, total price must be null']]);
    expect(await tiers({ ...standard, isDefault: false, conditions: large.conditions })).toEqual([['pricingTiers', 'Exactly one pricing tier must have isDefault: true']]);
    expect(await tiers({ ...standard, priority: 1 })).toEqual([['pricingTiers', 'Default pricing tier must have priority: 0']]);
    expect(await tiers({ ...standard, conditions: large.conditions })).toEqual([['pricingTiers', 'Default pricing tier must have empty conditions array']]);
    expect(await tiers(standard, { ...large, conditions: [] })).toEqual([['pricingTiers', 'Non-default pricing tier "Large" must have at least one condition']]);
    expect(await tiers(standard, { ...large, priority: 0 })).toEqual([['pricingTiers', 'Pricing tier priorities must be unique within a model']]);
    expect(await tiers(standard, { ...large, name: ' Standard ' })).toEqual([['pricingTiers', 'Pricing tier names must be unique']]);
    expect(await tiers({ ...standard, prices: {} })).toEqual([['pricingTiers', 'Pricing tier "Standard" must have at least one price defined']]);
    expect(await tiers(standard, { ...large, prices: { input: 2 } })).toEqual([
      ['pricingTiers', 'Pricing tier "Large" must have the same usage keys as the default tier. Expected: [input, output], Got: [input]'],
    ]);
    expect(await tiers(standard, { ...large, conditions: [{ usageDetailPattern: '(unclosed', operator: 'gt', value: 1 }] })).toEqual([
      ['pricingTiers.1.conditions.0.usageDetailPattern', 'Invalid regex pattern: must be valid regex and not cause catastrophic backtracking'],
      ['pricingTiers', 'Invalid regex pattern in tier "Large": Invalid regex syntax: Invalid regular expression: /(unclosed/: Unterminated group'],
    ]);
    expect(await tiers({ ...standard, name: ' ', priority: 0.5, prices: { input: -1 } })).toEqual([
      ['pricingTiers.0.name', 'Name cannot be empty'],
      ['pricingTiers.0.priority', 'Priority must be an integer'],
      ['pricingTiers.0.prices.input', 'Price must be non-negative'],
    ]);
    const attribute = { source: 'metadata', key: '', operator: 'in', values: [''] };
    expect(await tiers(standard, { ...large, conditions: [attribute] })).toEqual([
      ['pricingTiers.1.conditions.0.key', 'Key cannot be empty'],
      ['pricingTiers.1.conditions.0.values.0', 'Value cannot be empty'],
    ]);
    // A total price of 0 is falsy there, so it passes beside an input price.
    expect((await call('POST', '/api/public/models', { modelName: 'zero-total', matchPattern: 'zero-total', unit: 'TOKENS', inputPrice: 1, totalPrice: 0 })).status).toBe(200);
  });

  it('refuses a condition that is neither a usage nor an attribute condition, as the server\'s zod union does', async () => {
    const standard = { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1 } };
    const night = { name: 'Night', isDefault: false, priority: 1, conditions: [{ source: 'clock', after: '22:00' }], prices: { input: 0.5 } };
    const refused = await call('POST', '/api/public/models', { modelName: 'night', matchPattern: 'night', unit: 'TOKENS', pricingTiers: [standard, night] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Invalid request data');
    expect(refused.body.error).toEqual([expect.objectContaining({ code: 'invalid_union', path: ['pricingTiers', 1, 'conditions', 0] })]);
  });

  it('needs Basic auth and answers 405 for other methods', async () => {
    expect(await call('GET', '/api/public/models', undefined, server, false)).toEqual({ status: 401, body: { message: 'No authorization header' } });
    expect(await call('PATCH', '/api/public/models')).toEqual({ status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } });
  });
});

describe('GET /api/public/models', () => {
  it('lists the project\'s models and the built-in catalogue as managed ones, paged with meta', async () => {
    const first = await call('GET', '/api/public/models');
    expect(first.body.meta).toEqual({ page: 1, limit: 50, totalItems: expect.any(Number), totalPages: Math.ceil(first.body.meta.totalItems / 50) });
    const page = await call('GET', '/api/public/models?page=2&limit=1');
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta).toMatchObject({ page: 2, limit: 1 });
    expect((await call('GET', '/api/public/models?limit=101')).status).toBe(400);

    const all: Array<{ modelName: string; unit: string | null; isLangfuseManaged: boolean }> = [];
    for (let n = 1; ; n++) {
      const { body } = await call('GET', `/api/public/models?page=${n}&limit=100`);
      all.push(...body.data);
      if (n >= body.meta.totalPages) break;
    }
    expect(all.filter((m) => m.isLangfuseManaged)).toHaveLength(BUILT_IN_COUNT);
    expect(all.length).toBe(first.body.meta.totalItems);
    // modelName ascending, then unit ascending with nulls last.
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.modelName <= b.modelName).toBe(true);
      if (a.modelName === b.modelName) expect(a.unit === null && b.unit !== null).toBe(false);
    }
  });

  it('puts an override right before the built-in of the same name (its unit sorts before null)', async () => {
    const override = await call('POST', '/api/public/models', flat('gpt-4o', { matchPattern: '(?i)^(openai/)?(gpt-4o)$' }));
    const builtIn = builtInDefinitions().find((d) => d.modelName === 'gpt-4o')!;
    const all = await call('GET', '/api/public/models?limit=100&page=1').then(async (p1) => [...p1.body.data, ...(await call('GET', '/api/public/models?limit=100&page=2')).body.data]);
    const ids = all.map((m: { id: string }) => m.id);
    expect(ids.indexOf(builtIn.id)).toBe(ids.indexOf(override.body.id) + 1);
    await call('DELETE', `/api/public/models/${override.body.id}`);
  });
});

describe('GET and DELETE /api/public/models/{id}', () => {
  it('finds built-in models by id, and answers 404 for unknown ids', async () => {
    const builtIn = builtInDefinitions()[0]!;
    expect((await call('GET', `/api/public/models/${builtIn.id}`)).body).toEqual(builtIn);
    expect(await call('GET', '/api/public/models/nope')).toEqual({ status: 404, body: { message: 'No model with this id found.', error: 'LangfuseNotFoundError' } });
  });

  it('deletes project models only: built-in and unknown ids are 404 with a note', async () => {
    const created = await call('POST', '/api/public/models', flat('to-delete'));
    expect(await call('DELETE', `/api/public/models/${created.body.id}`)).toEqual({ status: 200, body: { message: 'Model successfully deleted' } });
    const again = await call('DELETE', `/api/public/models/${created.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toContain('You cannot delete built-in models, override them with a model with the same name.');
    expect((await call('DELETE', `/api/public/models/${builtInDefinitions()[0]!.id}`)).status).toBe(404);
  });
});

describe('PUT /api/public/models/{id}', () => {
  it('replaces a project model in place, keeping its id and creation time', async () => {
    const created = await call('POST', '/api/public/models', flat('put-me'));
    const replaced = await call('PUT', `/api/public/models/${created.body.id}`, flat('put-me', { inputPrice: 0.000005, matchPattern: '(?i)^put-me(-.*)?$' }));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, createdAt: created.body.createdAt, inputPrice: 0.000005, matchPattern: '(?i)^put-me(-.*)?$' });
    expect((await call('GET', `/api/public/models/${created.body.id}`)).body).toEqual(replaced.body);
  });

  it('creates a model under a new id, refuses built-in ids and a name another model has', async () => {
    const made = await call('PUT', '/api/public/models/my-own-id', flat('put-new'));
    expect(made.body).toMatchObject({ id: 'my-own-id', modelName: 'put-new' });
    const builtIn = await call('PUT', `/api/public/models/${builtInDefinitions()[0]!.id}`, flat('x-built-in'));
    expect(builtIn.status).toBe(400);
    expect(builtIn.body.message).toContain('Built-in models cannot be modified');
    await call('POST', '/api/public/models', flat('put-other'));
    expect((await call('PUT', '/api/public/models/my-own-id', flat('put-other'))).body.message).toBe("Model name 'put-other' already exists in project");
  });

  it('is not there on a server that behaves as an older Langfuse: 405, and health says the version', async () => {
    const created = await call('POST', '/api/public/models', flat('old-one'), old);
    expect(await call('PUT', `/api/public/models/${created.body.id}`, flat('old-one'), old)).toEqual({ status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } });
    expect((await call('GET', '/api/public/health', undefined, old)).body).toEqual({ status: 'OK', version: '4.16.0' });
  });
});
