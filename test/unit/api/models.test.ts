// Every request the models commands send, checked against the Langfuse contract (the OpenAPI
// schemas plus the server's stricter rules): a misspelt or dropped field fails here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { specToDefinition } from '../../../src/core/models/draft.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { runInProcess, tempDir } from '../../helpers/cli.js';
import { checkRequest } from '../../helpers/contract.js';
import { fakeModelsApi } from '../../helpers/fake-models-api.js';
import type { Recorded } from '../../helpers/recorder.js';

const GPT_4O = builtInDefinitions().find((d) => d.modelName === 'gpt-4o')!;
const TEAM = specToDefinition({ name: 'team-model', match_pattern: '(?i)^team-model$', pricing: { input: 0.000001, output: 0.000002 }, unit: 'TOKENS' }, { id: 'team-1', createdAt: '2025-01-01T00:00:00.000Z' });

let recorded: Recorded[] = [];
afterEach(() => {
  // Whatever a test did, every request it sent must be one a Langfuse server accepts as meant.
  for (const request of recorded) expect(checkRequest(request.method, request.path, request.body), `${request.method} ${request.path}`).toEqual([]);
  expect(JSON.stringify(recorded.map((r) => r.body))).not.toContain('tokenizationConfig');
  recorded = [];
});

async function cli(argv: string[], options: Parameters<typeof fakeModelsApi>[0] = {}, cwd?: string) {
  const api = fakeModelsApi({ definitions: [TEAM, GPT_4O], ...options });
  const result = await runInProcess(argv, { env: api.env, dispatcher: api.agent, cwd });
  recorded.push(...api.requests);
  return { ...result, requests: api.requests, definitions: api.definitions };
}

const bodyOf = (requests: Recorded[], method: string) => requests.find((r) => r.method === method)?.body;

describe('models create sends what a Langfuse server accepts', () => {
  it('sends input and output prices as flat prices, with the default pattern and unit', async () => {
    const r = await cli(['models', 'create', '--name', 'm-1', '--price', 'input=0.000001', '--price', 'output=2/1M']);
    expect(r.exitCode).toBe(0);
    expect(r.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /api/public/models']);
    expect(r.requests[0]!.body).toEqual({ modelName: 'm-1', matchPattern: '(?i)^m-1$', unit: 'TOKENS', inputPrice: 0.000001, outputPrice: 0.000002 });
    expect(r.stdout).toBe('new-1\n');
  });

  it('sends any other usage type as a default pricing tier, and the tokenizer under tokenizerConfig', async () => {
    const r = await cli([
      'models', 'create', '--name', 'cached', '--match-pattern', '(?i)^(openai/)?cached$', '--price', 'input=1/1M', '--price', 'cached_tokens=0.5/1M',
      '--start-date', '2025-02-01', '--tokenizer', 'openai', '--tokenizer-model', 'gpt-4o', '--tokens-per-message', '3', '--tokens-per-name', '1',
    ]);
    expect(r.exitCode).toBe(0);
    expect(bodyOf(r.requests, 'POST')).toEqual({
      modelName: 'cached',
      matchPattern: '(?i)^(openai/)?cached$',
      unit: 'TOKENS',
      startDate: '2025-02-01',
      tokenizerId: 'openai',
      tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 },
      pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000001, cached_tokens: 0.0000005 } }],
    });
  });

  it('sends a total price alone, another unit, and a whole tokenizer config from JSON', async () => {
    const total = await cli(['models', 'create', '--name', 'per-char', '--price', 'total=0.00001', '--unit', 'CHARACTERS', '--tokenizer', 'claude']);
    expect(bodyOf(total.requests, 'POST')).toEqual({ modelName: 'per-char', matchPattern: '(?i)^per-char$', unit: 'CHARACTERS', tokenizerId: 'claude', totalPrice: 0.00001 });
    const config = await cli(['models', 'create', '--name', 'emb', '--tokenizer', 'openai', '--tokenization-config', '{"tokenizerModel":"text-embedding-ada-002"}', '--price', 'input=1e-7']);
    expect(bodyOf(config.requests, 'POST')).toMatchObject({ tokenizerId: 'openai', tokenizerConfig: { tokenizerModel: 'text-embedding-ada-002' }, inputPrice: 1e-7 });
  });

  it('maps the spec\'s shape from a YAML file to the API\'s names', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'model.yaml'),
      ['name: spec-model', "match_pattern: '(?i)^spec-model$'", 'tokenizer: openai', 'tokenization_config:', '  tokenizerModel: gpt-4', '  tokensPerMessage: 3', '  tokensPerName: 1', 'pricing:', '  input: 0.00003', '  output: 0.00006', '  cached_tokens: 0.000015'].join('\n'),
    );
    const r = await cli(['models', 'create', '--file', 'model.yaml'], {}, dir);
    expect(r.exitCode).toBe(0);
    expect(bodyOf(r.requests, 'POST')).toEqual({
      modelName: 'spec-model',
      matchPattern: '(?i)^spec-model$',
      unit: 'TOKENS',
      tokenizerId: 'openai',
      tokenizerConfig: { tokenizerModel: 'gpt-4', tokensPerMessage: 3, tokensPerName: 1 },
      pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.00003, output: 0.00006, cached_tokens: 0.000015 } }],
    });
  });

  it('takes a definition saved from the API (tiers with ids, price mirrors) and overrides its name from a flag', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gpt-4o.json'), JSON.stringify(GPT_4O));
    const r = await cli(['models', 'create', '--file', 'gpt-4o.json', '--name', 'my-gpt-4o', '--start-date', '2026-01-01T00:00:00Z'], {}, dir);
    expect(r.exitCode).toBe(0);
    const body = bodyOf(r.requests, 'POST') as Record<string, unknown>;
    expect(body).toMatchObject({ modelName: 'my-gpt-4o', matchPattern: GPT_4O.matchPattern, unit: 'TOKENS', tokenizerId: 'openai', tokenizerConfig: GPT_4O.tokenizerConfig });
    expect(body.pricingTiers).toEqual(GPT_4O.pricingTiers.map(({ id: _id, ...tier }) => tier));
    expect(body).not.toHaveProperty('inputPrice');
  });

  it('prints the body and sends nothing with --dry-run', async () => {
    const r = await cli(['models', 'create', '--name', 'dry', '--price', 'input=1/1M', '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(r.requests).toEqual([]);
    expect(JSON.parse(r.stdout)).toEqual({ modelName: 'dry', matchPattern: '(?i)^dry$', unit: 'TOKENS', inputPrice: 0.000001 });
  });
});

describe('models update', () => {
  it('replaces the definition in place with PUT, keeping what the flags do not change', async () => {
    const r = await cli(['models', 'update', 'team-model', '--price', 'input=3/1M', '--tokenizer', 'claude']);
    expect(r.exitCode).toBe(0);
    const put = r.requests.find((q) => q.method === 'PUT')!;
    expect(put.path).toBe('/api/public/models/team-1');
    expect(put.body).toEqual({ modelName: 'team-model', matchPattern: '(?i)^team-model$', unit: 'TOKENS', tokenizerId: 'claude', inputPrice: 0.000003, outputPrice: 0.000002 });
    expect(r.requests.some((q) => q.method === 'DELETE' || q.method === 'POST')).toBe(false);
  });

  it('on a server without PUT, changes nothing unless --recreate, then deletes and creates', async () => {
    const refused = await cli(['models', 'update', 'team-1', '--price', 'output=5/1M'], { version: '4.16.0' });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Langfuse 4.16.0 cannot update a model definition in place');
    expect(refused.stderr).toContain('--recreate');
    expect(refused.requests.map((q) => q.method)).toEqual(['GET', 'GET']);

    const r = await cli(['models', 'update', 'team-1', '--price', 'output=5/1M', '--recreate'], { version: '4.16.0' });
    expect(r.exitCode).toBe(0);
    expect(r.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/public/models/team-1', 'GET /api/public/health', 'DELETE /api/public/models/team-1', 'POST /api/public/models']);
    expect(bodyOf(r.requests, 'POST')).toEqual({ modelName: 'team-model', matchPattern: '(?i)^team-model$', unit: 'TOKENS', inputPrice: 0.000001, outputPrice: 0.000005 });
    expect(r.stderr).toContain('new id new-1 (was team-1)');
  });

  it('finds out from PUT itself when the server does not say its version', async () => {
    const r = await cli(['models', 'update', 'team-1', '--unit', 'REQUESTS'], { version: null });
    // version null: the fake answers PUT, so it is used.
    expect(r.exitCode).toBe(0);
    expect(r.requests.map((q) => q.method)).toEqual(['GET', 'GET', 'PUT']);
  });
});

describe('reads', () => {
  it('list, get by name and match ask for pages the contract allows', async () => {
    expect((await cli(['models', 'list', '--page', '2', '--limit', '1'])).requests[0]!.path).toBe('/api/public/models?page=2&limit=1');
    const all = await cli(['models', 'list', '--all', '--json']);
    expect(JSON.parse(all.stdout).data.map((m: { id: string }) => m.id)).toEqual(['team-1', GPT_4O.id]);
    const get = await cli(['models', 'get', 'team-model', '--json']);
    expect(get.requests.map((q) => q.path)).toEqual(['/api/public/models/team-model', '/api/public/models?page=1&limit=100']);
    const match = await cli(['models', 'match', 'openai/gpt-4o', '--json']);
    expect(JSON.parse(match.stdout).winner.id).toBe(GPT_4O.id);
  });

  it('delete sends one DELETE for the resolved id', async () => {
    const r = await cli(['models', 'rm', 'team-model', '--yes']);
    expect(r.exitCode).toBe(0);
    expect(r.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual(['/api/public/models/team-1']);
  });
});
