// models list: a table that fits the terminal, and what the filters and --page allow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../../../src/output/fit.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { specToDefinition } from '../../../../src/core/models/draft.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { isolatedEnv, runInProcess } from '../../../helpers/cli.js';
import { fakeModelsApi } from '../../../helpers/fake-models-api.js';

describe('models list on a terminal', () => {
  let server: RunningServer;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    server = await startServer({ port: 0, ephemeral: true });
    env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
  });
  afterAll(() => server.close());

  // eslint-disable-next-line no-control-regex
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

  it('fits 80 columns, keeps source and id whole, and says how to see everything', async () => {
    const result = await runInProcess(['models', 'list', '--all'], { env, tty: true, columns: 80 });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = plain(result.stdout).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(result.stdout).toContain('…');
    expect(lines[0]).toMatch(/^NAME +(MATCH PATTERN +)?PRICES \(USD\) +SOURCE +ID$/);
    const gpt = lines.find((line) => line.startsWith('gpt-4o '))!;
    expect(gpt).toMatch(/built-in  b9854a5c92dc496b997d99d20$/);
    expect(result.stderr).toContain('Cut to fit the terminal');
    // 80 columns leave no room for the tokenizer: it is left out first.
    expect(lines[0]).not.toContain('TOKENIZER');
    // A wide terminal gets more of each value.
    const wide = await runInProcess(['models', 'list', '--all'], { env, tty: true, columns: 2000 });
    expect(plain(wide.stdout)).toContain('(?i)^(openai/)?(gpt-4o)$');
    expect(plain(wide.stdout).split('\n')[0]).toMatch(/^NAME +MATCH PATTERN +PRICES \(USD\) +TOKENIZER +SOURCE +ID$/);
    expect(wide.stderr).not.toContain('Cut to fit');
    // Very narrow: the pattern goes too; names and prices are cut, source and id stay whole.
    const narrow = await runInProcess(['models', 'list', '--all'], { env, tty: true, columns: 76 });
    const narrowLines = plain(narrow.stdout).trimEnd().split('\n');
    expect(narrowLines[0]).toMatch(/^NAME +PRICES \(USD\) +SOURCE +ID$/);
    for (const line of narrowLines) expect(displayWidth(line), line).toBeLessThanOrEqual(76);
  });

  it('keeps every value whole when piped or with --json', async () => {
    const piped = await runInProcess(['models', 'list', '--all'], { env, columns: 80 });
    expect(piped.stdout).not.toContain('…');
    expect(piped.stdout).toContain('(?i)^(openai/)?(gpt-4o)$');
    expect(piped.stderr).not.toContain('cut to fit');
    const json = JSON.parse((await runInProcess(['models', 'list', '--all', '--json'], { env, tty: true, columns: 80 })).stdout);
    expect(json.data.find((m: { modelName: string }) => m.modelName === 'gpt-4o').matchPattern).toBe('(?i)^(openai/)?(gpt-4o)$');
  });
});

const GPT_4O = builtInDefinitions().find((d) => d.modelName === 'gpt-4o')!;
const OVERRIDE = specToDefinition({ name: 'gpt-4o', match_pattern: '(?i)^gpt-4o$', pricing: { input: 0.000002 }, unit: 'TOKENS', start_date: '2025-01-01T00:00:00.000Z' }, { id: 'override-1', createdAt: '2025-01-01T00:00:00.000Z' });

async function cli(argv: string[], options: Parameters<typeof fakeModelsApi>[0] = {}) {
  const api = fakeModelsApi({ definitions: [OVERRIDE, GPT_4O], ...options });
  const result = await runInProcess(argv, { env: api.env, dispatcher: api.agent });
  return { ...result, requests: api.requests, definitions: api.definitions };
}

describe('models list', () => {
  it('says so on stderr when a filter leaves nothing, and prints no rows', async () => {
    const r = await cli(['models', 'list', '--custom'], { definitions: [GPT_4O] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No model definitions.');
  });

  it('refuses --page with --all or a filter, before sending anything', async () => {
    for (const extra of [['--all'], ['--managed']]) {
      const r = await cli(['models', 'list', '--page', '2', ...extra]);
      expect(r.exitCode).toBe(2);
      expect(r.requests).toEqual([]);
    }
    const large = await cli(['models', 'list', '--limit', '101', '--page', '1']);
    expect([large.exitCode, large.requests]).toEqual([2, []]);
    expect(large.stderr).toContain('with --page, --limit is the page size: at most 100');
  });
});
