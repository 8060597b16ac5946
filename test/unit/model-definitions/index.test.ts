// The definitions a command uses: offline the built-in catalogue, with a server the project's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { specToDefinition } from '../../../src/core/models/draft.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { offlineDefinitions } from '../../../src/model-definitions/index.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';

describe('offlineDefinitions', () => {
  it('adds the built-in catalogue, unless the file brings its own managed definitions', () => {
    const mine = specToDefinition({ name: 'mine', match_pattern: 'mine' });
    expect(offlineDefinitions([mine]).definitions).toHaveLength(1 + builtInDefinitions().length);
    const snapshot = [mine, builtInDefinitions()[0]!];
    expect(offlineDefinitions(snapshot)).toEqual({ definitions: snapshot, builtIn: 'file' });
  });
});

// One rule for where model definitions come from, the same in `estimate`, `estimate --batch`,
// `tokens count --model` and `models match`, and every output saying which definitions it used.
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
