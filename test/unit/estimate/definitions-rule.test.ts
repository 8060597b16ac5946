// One rule for where model definitions come from, the same in `estimate`, `estimate --batch`,
// `tokens count --model` and `models match`, and every output saying which definitions it used.
// Models files with a definition that has errors, and tiers whose total price replaces the sum.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';

let server: RunningServer;
let projectEnv: Record<string, string | undefined>;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
  projectEnv = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
  // The project overrides gpt-4o with its own prices and tokenizer (claude, to tell them apart).
  const created = await runInProcess(
    ['models', 'create', '--name', 'gpt-4o', '--match-pattern', '(?i)^gpt-4o$', '--price', 'input=1/1M', '--price', 'output=2/1M', '--tokenizer', 'claude'],
    { env: projectEnv },
  );
  expect(created.exitCode, created.stderr).toBe(0);
});

afterAll(async () => {
  await server.close();
});

const json = (text: string) => JSON.parse(text);

describe('which definitions a command uses', () => {
  it('uses the project\'s definitions in every command when a server is configured, and says so', async () => {
    const usage = '{"input":1000000,"output":1000000}';
    const estimate = await runInProcess(['estimate', '--json', '--model', 'gpt-4o', '--usage', usage], { env: projectEnv });
    expect(estimate.exitCode, estimate.stderr).toBe(0);
    const result = json(estimate.stdout);
    expect(result.matchedModel).toMatchObject({ source: 'custom' });
    expect(result.totalCost).toBe(3);
    expect(result.definitions).toMatchObject({ source: 'project', baseUrl: server.url, why: '$LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY are set', credentialsFrom: '$LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY', custom: 1 });

    const match = json((await runInProcess(['models', 'match', 'gpt-4o', '--json'], { env: projectEnv })).stdout);
    expect(match.winner).toMatchObject({ source: 'custom', id: result.matchedModel.id });
    expect(match.prices).toEqual({ input: 0.000001, output: 0.000002 });
    expect(match.definitions).toMatchObject({ source: 'project', baseUrl: server.url });

    const tokens = await runInProcess(['tokens', 'count', '--json', '--model', 'gpt-4o', 'hello'], { env: projectEnv });
    expect(json(tokens.stdout)).toMatchObject({ tokenizer: 'claude', definition: 'gpt-4o', definitions: { source: 'project', baseUrl: server.url } });
    const tokensText = await runInProcess(['tokens', 'count', '--model', 'gpt-4o', 'hello'], { env: projectEnv });
    expect(tokensText.stdout).toMatch(/^\d+\n$/);
    expect(tokensText.stderr).toMatch(/claude, the tokenizer of "gpt-4o" in the project's definitions at http:\/\/127\.0\.0\.1:\d+/);

    const batch = await runInProcess(['estimate', '--batch', '-', '--json'], { env: projectEnv, stdin: `{"model":"gpt-4o","usageDetails":${usage}}\n` });
    const lines = batch.stdout.trimEnd().split('\n').map(json);
    expect(lines[0].totalCost).toBe(3);
    expect(lines[1].summary.definitions).toMatchObject({ source: 'project', baseUrl: server.url });
  });

  it('uses the built-in catalogue with no configuration, and with --offline whatever is configured', async () => {
    for (const [env, flags, why] of [
      [isolatedEnv(), [], 'no profile or keys are configured'],
      [projectEnv, ['--offline'], '--offline'],
    ] as const) {
      const estimate = json((await runInProcess(['estimate', '--json', '--model', 'gpt-4o', '--usage', '{"input":1000000}', ...flags], { env })).stdout);
      expect(estimate.matchedModel.source).toBe('built-in');
      expect(estimate.totalCost).toBe(2.5);
      expect(estimate.definitions).toMatchObject({ source: 'catalogue', why, baseUrl: null, custom: 0 });
      expect(estimate.definitions.catalogue.count).toBe(estimate.definitions.builtIn);
      const match = json((await runInProcess(['models', 'match', 'gpt-4o', '--json', ...flags], { env })).stdout);
      expect(match.winner.source).toBe('built-in');
      expect(match.definitions).toMatchObject({ source: 'catalogue', why });
      const tokens = json((await runInProcess(['tokens', 'count', '--json', '--model', 'gpt-4o', 'hello', ...flags], { env })).stdout);
      expect(tokens).toMatchObject({ tokenizer: 'openai', definitions: { source: 'catalogue', why } });
    }
  });

  it('uses the catalogue when the profile file exists but no profile is active', async () => {
    const env = isolatedEnv();
    expect((await runInProcess(['profile', 'add', 'gone', '--region', 'eu', '--public-key', 'pk-lf-1-12345678', '--secret-key-stdin'], { env, stdin: 'sk-lf-1-12345678' })).exitCode).toBe(0);
    expect((await runInProcess(['profile', 'remove', 'gone', '--yes'], { env })).exitCode).toBe(0);
    const estimate = json((await runInProcess(['estimate', '--json', '--model', 'gpt-4o', '--usage', '{"input":1}'], { env })).stdout);
    expect(estimate.definitions).toMatchObject({ source: 'catalogue', why: 'no profile or keys are configured' });
  });

  it('refuses --remote without a server, and tells how to go offline when the server cannot be read', async () => {
    const none = await runInProcess(['estimate', '--remote', '--model', 'gpt-4o', '--input', 'hi'], { env: isolatedEnv() });
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toContain('no server configured');
    const both = await runInProcess(['estimate', '--remote', '--offline', '--model', 'gpt-4o'], { env: isolatedEnv() });
    expect(both.exitCode).toBe(2);
    // Half a key pair is a configuration error, not a silent switch to the catalogue.
    const half = await runInProcess(['models', 'match', 'gpt-4o'], { env: isolatedEnv({ LANGFUSE_PUBLIC_KEY: 'pk-lf-stray-12345678' }) });
    expect(half.exitCode).toBe(3);
    expect(half.stderr).toContain('$LANGFUSE_PUBLIC_KEY is set but no secret key is');
    expect(half.stderr).toContain('pass --offline');
    const down = await runInProcess(['estimate', '--model', 'gpt-4o', '--input', 'hi', '--retries', '0'], {
      env: isolatedEnv({ LANGFUSE_HOST: 'http://127.0.0.1:9', LANGFUSE_PUBLIC_KEY: 'pk-lf-1-12345678', LANGFUSE_SECRET_KEY: 'sk-lf-1-12345678' }),
    });
    expect(down.exitCode).toBe(4);
    expect(down.stderr).toContain('To use the built-in catalogue instead, pass --offline.');
  });

  it('adds a models file on top of the project\'s definitions; one holding built-in definitions only offline', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mine.yaml'), "name: acme\nmatch_pattern: '(?i)^acme$'\npricing:\n  input: 0.000004\n");
    writeFileSync(join(dir, 'snapshot.json'), JSON.stringify([{ id: 'b1', modelName: 'gpt-4o', matchPattern: '(?i)^gpt-4o$', isLangfuseManaged: true, prices: { input: { price: 0.000009 } }, pricingTiers: [] }]));
    const mine = json((await runInProcess(['estimate', '--json', '--model', 'acme', '--usage', '{"input":10}', '--models-file', 'mine.yaml'], { env: projectEnv, cwd: dir })).stdout);
    expect(mine).toMatchObject({ matchedModel: { id: 'local:acme' }, definitions: { source: 'project', modelsFile: 'mine.yaml', custom: 2 } });
    const refused = await runInProcess(['estimate', '--model', 'gpt-4o', '--usage', '{"input":10}', '--models-file', 'snapshot.json'], { env: projectEnv, cwd: dir });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('holds Langfuse-managed definitions');
    const offline = json((await runInProcess(['estimate', '--json', '--offline', '--model', 'gpt-4o', '--usage', '{"input":10}', '--models-file', 'snapshot.json'], { env: projectEnv, cwd: dir })).stdout);
    expect(offline).toMatchObject({ matchedModel: { id: 'b1' }, definitions: { source: 'file', total: 1 } });
  });
});

describe('a models file with a definition that has errors', () => {
  const file = [
    { name: 'good', match_pattern: '(?i)^good$', pricing: { input: 0.000001 } },
    { name: 'typo', match_pattern: '(?i)^typo$', pricing: { input: 'cheap' } },
    { name: 'unreadable', match_pattern: '(?i)^unreadable[', pricing: { input: 0.000001 } },
  ];

  it('still estimates what does not use it, reports it, and refuses the names it would price', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.json'), JSON.stringify(file));
    const env = isolatedEnv();
    const good = await runInProcess(['estimate', '--json', '--model', 'good', '--usage', '{"input":5}', '--models-file', 'models.json'], { env, cwd: dir });
    expect(good.exitCode, good.stderr).toBe(0);
    expect(json(good.stdout).totalCost).toBe(0.000005);
    expect(json(good.stdout).definitions.invalid).toEqual([
      { position: 2, modelName: 'typo', errors: ['prices.input: The price of "input" must be a number, got "cheap".'] },
      { position: 3, modelName: 'unreadable', errors: [expect.stringContaining('matchPattern: matchPattern is not a valid Postgres regular expression')] },
    ]);
    expect(good.stderr).toContain('warning: definition 2 ("typo") of models.json set aside: prices.input: The price of "input" must be a number');
    expect(good.stderr).toContain('definition 3 ("unreadable") of models.json set aside');
    expect(good.stderr).toContain('its pattern cannot be read, so no name can match it');

    // Priced with the built-in catalogue instead, it would look right and be wrong: refused.
    const typo = await runInProcess(['estimate', '--model', 'TYPO', '--usage', '{"input":5}', '--models-file', 'models.json'], { env, cwd: dir });
    expect(typo.exitCode).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain('"TYPO" matches definition 2 ("typo") of models.json has errors');
    expect((await runInProcess(['models', 'match', 'typo', '--models-file', 'models.json', '--offline'], { env, cwd: dir })).exitCode).toBe(2);
    expect((await runInProcess(['models', 'match', 'good', '--models-file', 'models.json', '--offline'], { env, cwd: dir })).exitCode).toBe(0);

    const lines = ['{"model":"good","usageDetails":{"input":1}}', '{"id":"t","model":"typo","usageDetails":{"input":1}}', '{"model":"gpt-4o","usageDetails":{"input":1}}'];
    const batch = await runInProcess(['estimate', '--batch', '-', '--models-file', 'models.json'], { env, cwd: dir, stdin: `${lines.join('\n')}\n` });
    expect(batch.exitCode).toBe(2);
    const out = batch.stdout.trimEnd().split('\n').map(json);
    expect(out[0]).toMatchObject({ line: 1, totalCost: 0.000001 });
    expect(out[1]).toEqual({ line: 2, id: 't', error: { code: 'invalid_definition', message: '"typo" matches definition 2 ("typo") of models.json has errors: prices.input: The price of "input" must be a number, got "cheap".' } });
    expect(out[2]).toMatchObject({ line: 3, matchedModel: { source: 'built-in' } });
  });
});

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
