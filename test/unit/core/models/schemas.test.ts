// A newer server may define pricing-tier conditions of a kind llmobs does not know. Reading them
// must not fail: they are shown, kept, counted as not met in estimates (with a warning), and never
// sent back unchecked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modelDefinitionSchema } from '../../../../src/core/models/schemas.js';
import { runInProcess, tempDir } from '../../../helpers/cli.js';
import { checkRequest } from '../../../helpers/contract.js';
import { fakeModelsApi } from '../../../helpers/fake-models-api.js';
import type { Recorded } from '../../../helpers/recorder.js';

const CLOCK = { source: 'clock', after: '22:00', timezone: 'UTC' };
const WIRE = {
  id: 'night-1',
  modelName: 'night-model',
  matchPattern: '(?i)^night-model$',
  startDate: null,
  unit: 'TOKENS',
  inputPrice: 0.000002,
  outputPrice: null,
  totalPrice: null,
  tokenizerId: null,
  tokenizerConfig: null,
  isLangfuseManaged: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  prices: { input: { price: 0.000002 } },
  pricingTiers: [
    { id: 'night-1_tier_default', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000002 } },
    { id: 'night-1_tier_night', name: 'Night', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 100, caseSensitive: false }, CLOCK], prices: { input: 0.000001 } },
  ],
};
const NIGHT = modelDefinitionSchema.parse(WIRE);

let recorded: Recorded[] = [];
afterEach(() => {
  for (const request of recorded) expect(checkRequest(request.method, request.path, request.body), `${request.method} ${request.path}`).toEqual([]);
  recorded = [];
});

async function cli(argv: string[], cwd?: string) {
  const api = fakeModelsApi({ definitions: [NIGHT] });
  const result = await runInProcess(argv, { env: api.env, dispatcher: api.agent, cwd });
  recorded.push(...api.requests);
  return { ...result, requests: api.requests };
}

describe('reading definitions with a condition of an unknown kind', () => {
  it('models get shows the condition as the server sent it, and --json gives it back unchanged', async () => {
    const text = await cli(['models', 'get', 'night-1']);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toContain('Night (priority 1, when usage matching /input/i > 100 and a condition llmobs does not know: {"source":"clock","after":"22:00","timezone":"UTC"})');

    const json = await cli(['models', 'get', 'night-1', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(WIRE);
    const list = await cli(['models', 'list', '--all', '--json']);
    expect(JSON.parse(list.stdout).data).toEqual([WIRE]);
  });

  it('estimate --remote prices without the undecidable tier, warns, and --explain says why', async () => {
    const usage = ['--model', 'night-model', '--usage', '{"input":1000}'];
    const json = await cli(['estimate', '--remote', '--json', '--explain', ...usage]);
    expect(json.exitCode, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result.pricingTier).toBe('Standard');
    expect(result.warnings).toEqual([{ code: 'tier-condition-unknown', message: expect.stringContaining('Tier "Night" of "night-model"') }]);
    expect(result.explain.tier.tried).toEqual([
      {
        name: 'Night',
        priority: 1,
        passed: false,
        undecided: true,
        conditions: [
          'sum of input (/input/) = 1000 gt 100: yes',
          'a condition llmobs does not know: {"source":"clock","after":"22:00","timezone":"UTC"}: cannot be evaluated, so it counts as not met',
        ],
      },
    ]);

    const text = await cli(['estimate', '--remote', '--explain', ...usage]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toContain('"Night" (priority 1): undecided: the server may choose it');
    expect(text.stdout).toContain('cannot be evaluated, so it counts as not met');
    expect(text.stdout).toContain('Chosen: "Standard"');
    expect(text.stderr).toContain('[tier-condition-unknown]');
  });

  it('estimate reads the same definition from a saved --models-file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.json'), JSON.stringify({ data: [WIRE] }));
    const r = await runInProcess(['estimate', '--json', '--models-file', 'models.json', '--model', 'night-model', '--usage', '{"input":1000}'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).warnings.map((w: { code: string }) => w.code)).toEqual(['tier-condition-unknown']);
  });

  it('models lint warns that it cannot check the condition, without failing', async () => {
    const r = await cli(['models', 'lint', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).findings).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'tier-condition-unknown', path: 'pricingTiers.1.conditions.1' }));
  });
});

describe('sending definitions with a condition of an unknown kind', () => {
  it('models update refuses before sending: llmobs cannot check the stored condition', async () => {
    const r = await cli(['models', 'update', 'night-1', '--price', 'input=3/1M']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('pricingTiers.1.conditions.1: A condition of a kind llmobs does not know ({"source":"clock","after":"22:00","timezone":"UTC"})');
    expect(r.stderr).toContain('[tier-condition-unknown]');
    expect(r.stderr).toContain('llmobs api');
    expect(r.requests.map((q) => q.method)).toEqual(['GET']);
  });

  it('models create refuses such a condition in a file, nothing sent', async () => {
    const dir = tempDir();
    const { id: _id, ...body } = WIRE;
    writeFileSync(join(dir, 'night.json'), JSON.stringify({ ...body, modelName: 'night-two' }));
    const r = await cli(['models', 'create', '--file', 'night.json'], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('pricingTiers.1.conditions.1');
    expect(r.requests).toEqual([]);
  });
});

describe('fields older servers omit', () => {
  it('parse to their neutral values', () => {
    const { tokenizerConfig: _config, startDate: _start, createdAt: _created, prices: _prices, pricingTiers: _tiers, ...minimal } = WIRE;
    const parsed = modelDefinitionSchema.parse(minimal);
    expect(parsed).toMatchObject({ tokenizerConfig: null, startDate: null, createdAt: null, prices: {}, pricingTiers: [] });
  });
});
