// `llmobs estimate` for one generation: the JSON contract, the numbers, explanations and refusals.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';

const o200k = get_encoding('o200k_base');
afterAll(() => o200k.free());

const catalogue = builtInDefinitions();
const defaultPrices = (name: string) => catalogue.find((d) => d.modelName === name)!.pricingTiers.find((t) => t.isDefault)!.prices;
const cost = (price: number, units: number) => new Decimal(price).mul(units).toNumber();

async function estimateJson(args: string[], cwd?: string) {
  const result = await runInProcess(['estimate', '--json', ...args], { env: isolatedEnv(), cwd });
  expect(result.stderr, result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout);
}

describe('estimate', () => {
  it('prices provided OpenAI usage with the server mapping, in the documented shape', async () => {
    const usage = { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 200 } };
    const result = await estimateJson(['--model', 'gpt-4o', '--usage', JSON.stringify(usage)]);
    expect(Object.keys(result)).toEqual(['model', 'matchedModel', 'tokenizer', 'usageDetails', 'costDetails', 'totalCost', 'pricingTier', 'warnings', 'definitions']);
    expect(result.definitions).toMatchObject({ source: 'catalogue', why: 'no profile or keys are configured', baseUrl: null, modelsFile: null, custom: 0, invalid: [] });
    expect(result.matchedModel).toEqual({ id: 'b9854a5c92dc496b997d99d20', modelName: 'gpt-4o', matchPattern: '(?i)^(openai/)?(gpt-4o)$', source: 'built-in' });
    // Cached tokens are subtracted from input; total stays as provided.
    expect(result.usageDetails).toEqual({ input: 1000, output: 300, total: 1500, input_cached_tokens: 200 });
    const prices = defaultPrices('gpt-4o');
    const expected = { input: cost(prices.input!, 1000), output: cost(prices.output!, 300), input_cached_tokens: cost(prices.input_cached_tokens!, 200) };
    expect(result.costDetails).toMatchObject(expected);
    expect(result.totalCost).toBeCloseTo(expected.input + expected.output + expected.input_cached_tokens, 12);
    expect(result.pricingTier).toBe('Standard');
  });

  it('tokenizes input and output when no usage is given, counting chat messages as the server does', async () => {
    const messages = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is the capital of France?', name: 'ann' }];
    const result = await estimateJson(['--model', 'gpt-4o', '--input', JSON.stringify(messages), '--output', 'Paris.']);
    const chatTokens = messages.reduce((n, m) => n + 3 + o200k.encode(m.role).length + o200k.encode(m.content).length + (m.name ? o200k.encode(m.name).length + 1 : 0), 0) + 3;
    expect(result.usageDetails).toEqual({ input: chatTokens, output: o200k.encode('Paris.').length, total: chatTokens + o200k.encode('Paris.').length });
    expect(result.tokenizer).toEqual({ id: 'openai', encoding: 'o200k_base', tokenizerModel: 'gpt-4o' });
  });

  it('picks a pricing tier from model parameters', async () => {
    const result = await estimateJson(['--model', 'gpt-4o-mini', '--usage', '{"input":10,"output":5}', '--model-parameters', '{"service_tier":"priority"}']);
    expect(result.pricingTier).toBe('Fast mode');
  });

  it('ignores tier attributes when usage is tokenized, as the server does, and says which tier they would have chosen', async () => {
    const result = await estimateJson(['--model', 'gpt-4o-mini', '--input', 'hello there', '--model-parameters', '{"service_tier":"priority"}']);
    expect(result.pricingTier).toBe('Standard');
    expect(result.warnings).toContainEqual({ code: 'tier-attributes-ignored', message: expect.stringContaining('"Standard" rather than "Fast mode"') });
  });

  it('counts tool definitions from the metadata as part of the input, single and --batch alike', async () => {
    const tools = [{ type: 'function', function: { name: 'lookup', description: 'Find a document by its title', parameters: { type: 'object', properties: { title: { type: 'string' } } } } }];
    const messages = [{ role: 'user', content: 'Find the Q3 report.' }];
    const plain = await estimateJson(['--model', 'gpt-4o', '--input', JSON.stringify(messages)]);
    const withTools = await estimateJson(['--model', 'gpt-4o', '--input', JSON.stringify(messages), '--metadata', JSON.stringify({ tools, team: 'search' })]);
    // The server counts {messages, tools} as JSON text, no longer as chat messages.
    expect(withTools.usageDetails.input).toBe(o200k.encode(JSON.stringify({ messages, tools })).length);
    expect(withTools.usageDetails.input).toBeGreaterThan(plain.usageDetails.input);

    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), `${JSON.stringify({ model: 'gpt-4o', input: messages, metadata: { tools, team: 'search' } })}\n${JSON.stringify({ model: 'gpt-4o-mini', input: 'hello there', model_parameters: { service_tier: 'priority' } })}\n`);
    const batch = await runInProcess(['estimate', '--batch', 'in.jsonl'], { env: isolatedEnv(), cwd: dir });
    const [first, second] = batch.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(first.usageDetails).toEqual(withTools.usageDetails);
    expect(second).toMatchObject({ pricingTier: 'Standard', warnings: [{ code: 'tier-attributes-ignored' }] });
  });

  it('warns with stable codes: no match, reasoning models, claude approximations', async () => {
    const unknown = await runInProcess(['estimate', '--json', '--model', 'my-own-model', '--input', 'hi'], { env: isolatedEnv() });
    expect(JSON.parse(unknown.stdout)).toMatchObject({ matchedModel: null, usageDetails: {}, costDetails: {}, totalCost: null, warnings: [{ code: 'no-matching-model' }] });
    const claude = await estimateJson(['--model', 'claude-sonnet-4-5', '--input', 'hello', '--output', 'hi']);
    expect(claude.warnings.map((w: { code: string }) => w.code)).toContain('claude-count-approximate');
  });

  it('says on stderr, last, when no definition matches, and suggests the closest names (exit 0, as the server stores the generation)', async () => {
    const json = await runInProcess(['estimate', '--json', '--model', 'gpt4o', '--input', 'hi'], { env: isolatedEnv() });
    expect(json.exitCode).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ matchedModel: null, totalCost: null, suggestions: expect.arrayContaining(['gpt-4o']) });
    expect(result.suggestions[0]).toBe('gpt-4o');
    expect(Object.keys(result)).toEqual(['model', 'matchedModel', 'tokenizer', 'usageDetails', 'costDetails', 'totalCost', 'pricingTier', 'warnings', 'suggestions', 'definitions']);
    expect(result.warnings).toEqual([{ code: 'no-matching-model', message: expect.stringMatching(/^No model definition matches "gpt4o"; did you mean gpt-4o[,? ]/) }]);
    // With --json too: stdout is for the JSON, the warning goes to stderr.
    expect(json.stderr).toMatch(/^warning: No model definition matches "gpt4o"; did you mean gpt-4o.* \[no-matching-model\]\n$/);

    const text = await runInProcess(['estimate', '--model', 'gpt4o', '--input', 'hi'], { env: isolatedEnv() });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('Definition\tnone: no usage or cost would be computed');
    expect(text.stderr.trimEnd().split('\n').at(-1)).toMatch(/^warning: No model definition matches "gpt4o"; did you mean gpt-4o/);

    // Nothing close: no suggestion, and where to see every name.
    const far = await runInProcess(['estimate', '--json', '--model', 'my-own-model', '--input', 'hi'], { env: isolatedEnv() });
    expect(JSON.parse(far.stdout).suggestions).toEqual([]);
    expect(far.stderr).toBe('warning: No model definition matches "my-own-model"; the server computes neither usage nor cost for it. [no-matching-model]\nSee every built-in definition with: llmobs models list --offline --all\n');

    // A matched name has no suggestions in its result.
    expect(Object.keys(await estimateJson(['--model', 'gpt-4o', '--input', 'hi']))).not.toContain('suggestions');
  });

  it('suggests the names of --models-file definitions too', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.yaml'), 'name: acme-large\nmatch_pattern: "(?i)^acme-large$"\nunit: TOKENS\npricing:\n  input: 0.000001\n');
    const result = await runInProcess(['estimate', '--json', '--model', 'acme-lrage', '--usage', '{"input":10}', '--models-file', 'models.yaml'], { env: isolatedEnv(), cwd: dir });
    expect(JSON.parse(result.stdout).suggestions).toEqual(['acme-large']);
  });

  it('lets custom definitions from --models-file win over built-in ones', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.yaml'), 'name: gpt-4o\nmatch_pattern: "(?i)^gpt-4o$"\nunit: TOKENS\npricing:\n  input: 0.000001\n  output: 0.000002\n');
    const result = await estimateJson(['--model', 'gpt-4o', '--usage', '{"input":1000,"output":100}', '--models-file', 'models.yaml'], dir);
    expect(result.matchedModel).toMatchObject({ modelName: 'gpt-4o', source: 'custom' });
    // The JS sum is 0.0012000000000000001; stored as Decimal64(12) it comes back as 0.0012.
    const stored = (value: number) => new Decimal(value).toDecimalPlaces(12, Decimal.ROUND_DOWN).toNumber();
    expect(result.costDetails).toEqual({ input: cost(0.000001, 1000), output: cost(0.000002, 100), total: stored(cost(0.000001, 1000) + cost(0.000002, 100)) });
  });

  it('shows prices in the unit of the matched definition', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.json'), JSON.stringify({ name: 'imager', match_pattern: '^imager$', unit: 'IMAGES', pricing: { input: 0.04 } }));
    const result = await runInProcess(['estimate', '--model', 'imager', '--usage', '{"input":3}', '--models-file', 'models.json'], { env: isolatedEnv(), cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^input\t3\t\$0\.04\/image\t\$0\.12$/m);
    const tokens = await runInProcess(['estimate', '--model', 'gpt-4o', '--usage', '{"input":1000}'], { env: isolatedEnv() });
    expect(tokens.stdout).toMatch(/^input\t1000\t\$2\.50\/1M\t\$0\.0025$/m);
  });

  it('explains in words which definition, which tier, and price × units', async () => {
    const result = await runInProcess(['estimate', '--model', 'gpt-4o', '--usage', '{"input":1000,"output":100}', '--explain'], { env: isolatedEnv() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('"gpt-4o" matches built-in definition "gpt-4o"');
    expect(result.stdout).toContain('Chosen: "Standard", because no other tier applies');
    expect(result.stdout).toMatch(/input: 1000 × \$0\.0000025 = \$0\.0025/);
    const json = await estimateJson(['--model', 'gpt-4o', '--usage', '{"input":1000}', '--explain']);
    expect(json.explain.cost.lines).toEqual([{ usageType: 'input', units: 1000, price: 0.0000025, cost: 0.0025, stored: 0.0025 }]);
  });

  it('refuses bad input with exit 2 before doing anything', async () => {
    const env = isolatedEnv();
    for (const args of [
      ['estimate', '--usage', '{}'],
      ['estimate', '--model', 'gpt-4o', '--usage', '{"input":'],
      ['estimate', '--model', 'gpt-4o', '--input', 'a', '--input-file', 'b'],
      ['estimate', '--model', 'gpt-4o', '--model-parameters', '[1]'],
      ['estimate', '--batch', 'x.jsonl', '--model', 'gpt-4o'],
    ]) {
      const result = await runInProcess(args, { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
    const missing = await runInProcess(['estimate', '--model', 'gpt-4o', '--input-file', 'nope.txt'], { env });
    expect(missing.exitCode).toBe(6);
  });
});

describe('estimate --remote', () => {
  it("uses the profile's definitions from the server, custom ones first, and caches them", async () => {
    const { startServer } = await import('../../../src/server/index.js');
    const server = await startServer({ port: 0, ephemeral: true });
    try {
      const env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
      const created = await runInProcess(['models', 'create', '--name', 'gpt-4o', '--match-pattern', '(?i)^gpt-4o$', '--price', 'input=0.000003', '--price', 'output=0.000004'], { env });
      expect(created.exitCode, created.stderr).toBe(0);
      const first = await runInProcess(['estimate', '--json', '--remote', '--model', 'gpt-4o', '--usage', '{"input":1000,"output":10}'], { env });
      expect(first.exitCode, first.stderr).toBe(0);
      const result = JSON.parse(first.stdout);
      expect(result.matchedModel).toMatchObject({ modelName: 'gpt-4o', source: 'custom' });
      expect(result.costDetails).toMatchObject({ input: cost(0.000003, 1000), output: cost(0.000004, 10) });
      // A built-in definition still comes from the server's list.
      const builtIn = JSON.parse((await runInProcess(['estimate', '--json', '--remote', '--model', 'gpt-4o-mini', '--usage', '{"input":1}'], { env })).stdout);
      expect(builtIn.matchedModel).toMatchObject({ modelName: 'gpt-4o-mini', source: 'built-in' });
      expect(result.definitions).toMatchObject({ source: 'project', why: '--remote', baseUrl: server.url, cached: false, credentialsFrom: '$LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY' });
      // Without a match, the names suggested are the project's (its own and the built-in ones).
      const unknown = await runInProcess(['estimate', '--json', '--remote', '--model', 'GPT4O', '--usage', '{"input":1}'], { env });
      expect(JSON.parse(unknown.stdout).suggestions[0]).toBe('gpt-4o');
      expect(unknown.stderr).toContain('did you mean gpt-4o');
      expect((await runInProcess(['estimate', '--remote', '--model', 'gpt-4o', '--usage', '{"input":1}'], { env })).stdout).toMatch(/^Definitions\tthe project's definitions at http:\/\/127\.0\.0\.1:\d+ \(\$LANGFUSE_PUBLIC_KEY and \$LANGFUSE_SECRET_KEY, a cached copy from .*, chosen by --remote$/m);
    } finally {
      await server.close();
    }
  });
});

// Tiers whose total price replaces the sum, and sums of components as the server stores them.
const json = (text: string) => JSON.parse(text);

describe('a total price next to other prices', () => {
  it('is applied as the server applies it: the total price replaces the sum; lint warns', async () => {
    const dir = tempDir();
    const definition = {
      modelName: 'bundle',
      matchPattern: '(?i)^bundle$',
      // Not tokens, so the prices do not look like prices per million typed per token.
      unit: 'REQUESTS',
      pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.01, output: 0.02, total: 0.03 } }],
    };
    writeFileSync(join(dir, 'bundle.json'), JSON.stringify(definition));
    const env = isolatedEnv();
    // The server's test: prices input 0.01, output 0.02, total 0.03 with usage 100/200 give input 1,
    // output 4 and a total of 9 (0.03 × 300), not 5.
    const result = await runInProcess(['estimate', '--json', '--explain', '--model', 'bundle', '--usage', '{"input":100,"output":200}', '--models-file', 'bundle.json'], { env, cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    const estimate = json(result.stdout);
    expect(estimate.costDetails).toEqual({ input: 1, output: 4, total: 9 });
    expect(estimate.totalCost).toBe(9);
    expect(estimate.explain.cost.totalMethod).toBe('total-price');
    expect(estimate.definitions.invalid).toEqual([]);
    expect((await runInProcess(['models', 'match', 'bundle', '--offline', '--models-file', 'bundle.json'], { env, cwd: dir })).exitCode).toBe(0);

    const lint = await runInProcess(['models', 'lint', '--offline', '--models-file', 'bundle.json', '--json'], { env, cwd: dir });
    expect(lint.exitCode).toBe(0);
    expect(json(lint.stdout)).toMatchObject({ errors: 0, findings: [{ severity: 'warning', code: 'total-price-replaces-sum', path: 'pricingTiers.0.prices.total' }] });
    expect((await runInProcess(['models', 'lint', '--offline', '--models-file', 'bundle.json', '--strict'], { env, cwd: dir })).exitCode).toBe(9);
  });
});

describe('sums of cost components', () => {
  it('explains where the server\'s float sum, stored to 12 decimals, lands below the components\' sum', async () => {
    // 0.00000015 + 0.0002448 is 0.00024494999999999996 in floating point: stored as 0.000244949999.
    const args = ['estimate', '--model', 'gpt-4o-mini', '--offline', '--usage', '{"input":1,"output":408}'];
    const data = json((await runInProcess([...args, '--json', '--explain'], { env: isolatedEnv() })).stdout);
    expect(data.totalCost).toBe(0.000244949999);
    expect(data.costDetails.total).toBe(0.000244949999);
    expect(data.explain.cost.sum).toEqual({ exact: '0.00024495', float: 0.00024494999999999996, stored: 0.000244949999, differs: true });
    const text = await runInProcess([...args, '--explain'], { env: isolatedEnv() });
    expect(text.stdout).toContain('Total cost\t$0.000244949999  (the components add up to $0.00024495; the server\'s float sum is stored cut to 12 decimals, see --explain)');
    expect(text.stdout).toContain('Total: the sum of the components, $0.00024495, as the server computes and stores it:');
    expect(text.stdout).toContain('it adds the components as floating-point numbers: 0.00024494999999999996');
    expect(text.stdout).toContain('and stores costs with 12 decimals, cutting off the rest: $0.000244949999');
    // Where nothing drifts, the total is just the sum.
    const plain = await runInProcess(['estimate', '--model', 'gpt-4o', '--offline', '--usage', '{"input":110,"output":30}', '--explain'], { env: isolatedEnv() });
    expect(plain.stdout).toContain('Total cost\t$0.000575\n');
    expect(plain.stdout).toContain('Total: the sum of the components = $0.000575');
  });
});
