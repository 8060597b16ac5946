// `llmobs models` as a user runs it: the built binary against the local server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../../src/data/catalogue.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

let server: RunningServer;
let old: RunningServer;
let env: Record<string, string | undefined>;
let oldEnv: Record<string, string | undefined>;
const log: string[] = [];
const BUILT_IN = builtInDefinitions().length;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true, log: (line) => log.push(line) });
  old = await startServer({ port: 0, ephemeral: true, apiVersion: '4.16.0' });
  env = await profileEnv(server);
  oldEnv = await profileEnv(old);
});

afterAll(async () => {
  await server.close();
  await old.close();
});

const run = (args: string[], options: { env?: typeof env; input?: string } = {}) => llmobs(['models', ...args], { env: options.env ?? env, input: options.input });
const json = (text: string) => JSON.parse(text);

/** Runs a command and returns what reached the server meanwhile. */
async function sent(args: string[]) {
  const before = log.length;
  const result = await run(args);
  return { ...result, requests: log.slice(before) };
}

describe('create, get and list', () => {
  it('creates from flags, then finds the definition by id and by name', async () => {
    const created = await run(['create', '--name', 'e2e-flags', '--price', 'input=2.5/1M', '--price', 'output=10/1M', '--price', 'input_cached_tokens=1.25/1M', '--tokenizer', 'openai', '--tokenizer-model', 'gpt-4o', '--tokens-per-message', '3', '--tokens-per-name', '1']);
    expect(created.exitCode).toBe(0);
    const id = created.stdout.trim();
    expect(created.stderr).toContain('no match pattern given: using (?i)^e2e-flags$');

    const byId = json((await run(['get', id, '--json'])).stdout);
    expect(byId).toMatchObject({
      id,
      modelName: 'e2e-flags',
      matchPattern: '(?i)^e2e-flags$',
      unit: 'TOKENS',
      tokenizerId: 'openai',
      tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 },
      isLangfuseManaged: false,
      inputPrice: 0.0000025,
      outputPrice: 0.00001,
      prices: { input: { price: 0.0000025 }, output: { price: 0.00001 }, input_cached_tokens: { price: 0.00000125 } },
    });
    expect(byId.pricingTiers).toHaveLength(1);

    const byName = await run(['get', 'e2e-flags']);
    expect(byName.exitCode).toBe(0);
    expect(byName.stdout).toContain(`ID\t${id}`);
    expect(byName.stdout).toContain('Source\tcustom (this project)');
    expect(byName.stdout).toMatch(/input_cached_tokens +\$1\.25\/1M +0\.00000125 per token/);
  });

  it('creates from a spec-shaped YAML file and stores the API shape', async () => {
    const dir = tempDir();
    const file = join(dir, 'spec.yaml');
    writeFileSync(file, ['name: e2e-spec', "match_pattern: '(?i)^(acme/)?e2e-spec$'", 'tokenizer: claude', 'pricing:', '  input: 0.000003', '  output: 0.000015', '  cached_tokens: 0.0000003'].join('\n'));
    const created = await run(['create', '--file', file, '--json']);
    expect(created.exitCode).toBe(0);
    const model = json(created.stdout);
    expect(model).toMatchObject({ modelName: 'e2e-spec', matchPattern: '(?i)^(acme/)?e2e-spec$', tokenizerId: 'claude', unit: 'TOKENS', inputPrice: 0.000003 });
    expect(model.pricingTiers[0].prices).toEqual({ input: 0.000003, output: 0.000015, cached_tokens: 0.0000003 });
    expect(json((await run(['get', model.id, '--json'])).stdout)).toEqual(model);
  });

  it('lists one page with meta, every page with --all, and only custom ones with --custom', async () => {
    const page = json((await run(['list', '--page', '2', '--limit', '3', '--json'])).stdout);
    expect(page.data).toHaveLength(3);
    expect(page.meta).toMatchObject({ page: 2, limit: 3 });

    const all = json((await run(['list', '--all', '--json'])).stdout).data;
    expect(all).toHaveLength(page.meta.totalItems);
    expect(all.filter((m: { isLangfuseManaged: boolean }) => m.isLangfuseManaged)).toHaveLength(BUILT_IN);

    const custom = await run(['list', '--custom']);
    expect(custom.exitCode).toBe(0);
    const rows = custom.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows.filter((row) => row[4] !== 'custom'), custom.stdout).toEqual([]);
    expect(rows.find((row) => row[0] === 'e2e-flags')?.[2]).toBe('input $2.50/1M, output $10.00/1M, input_cached_tokens $1.25/1M');
    expect(custom.stderr).toMatch(/\d+ definitions? \(\d+ custom, 0 built-in\)/);

    const human = await run(['list', '--limit', '5']);
    expect(human.stderr).toBe(`Showing 5 of ${page.meta.totalItems} model definitions. More: --limit ${page.meta.totalItems}, or --all\n`);
    const over = json((await run(['list', '--limit', '150', '--json'])).stdout);
    expect(over.data).toHaveLength(150);
    expect((await run(['list', '--custom', '--managed'])).exitCode).toBe(2);
  });
});

describe('match', () => {
  it('says which definition wins and why, which lose, and the tokenizer and prices', async () => {
    expect((await run(['create', '--name', 'gpt-4o', '--match-pattern', '(?i)^(openai/)?(gpt-4o)$', '--price', 'input=2/1M', '--price', 'output=8/1M', '--start-date', '2025-06-01'])).exitCode).toBe(0);
    const result = await run(['match', 'openai/gpt-4o', '--json']);
    expect(result.exitCode).toBe(0);
    const view = json(result.stdout);
    expect(view).toMatchObject({
      model: 'openai/gpt-4o',
      matched: true,
      winner: { modelName: 'gpt-4o', source: 'custom', startDate: '2025-06-01T00:00:00.000Z' },
      why: 'custom definitions come before built-in ones',
      tokenizer: null,
      prices: { input: 0.000002, output: 0.000008 },
      losers: [{ modelName: 'gpt-4o', source: 'built-in', reason: 'custom-definition-first' }],
    });
    expect(view.definitions).toMatchObject({ source: 'project', baseUrl: server.url, cached: false, builtIn: BUILT_IN, credentialsFrom: 'profile "local"' });
    expect(view.definitions.why).toBe('profile "local" is in use');

    const human = await run(['match', 'gpt-4o']);
    expect(human.stdout).toContain('Why\tcustom definitions come before built-in ones');
    expect(human.stdout).toMatch(/input +\$2\.00\/1M/);
    expect(human.stdout).toContain('Also matching, not chosen (1)');

    const offline = json((await run(['match', 'gpt-4o', '--offline', '--json'])).stdout);
    expect(offline.winner).toMatchObject({ source: 'built-in', id: builtInDefinitions().find((d) => d.modelName === 'gpt-4o')!.id });
    expect(offline.tokenizer).toMatchObject({ id: 'openai', encoding: 'o200k_base', chat: { tokensPerMessage: 3, tokensPerName: 1 } });

    const none = await run(['match', 'no-such-model-anywhere']);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).toContain('no definition');
    expect(none.stderr.trimEnd().split('\n').slice(-2)).toEqual([
      'warning: No model definition matches "no-such-model-anywhere"; the server computes neither usage nor cost for it.',
      'See every definition with: llmobs models list --all',
    ]);
    // A near miss: the closest names of the project's definitions, its own included.
    const typo = await run(['match', 'e2e-flgas']);
    expect(typo.exitCode).toBe(0);
    expect(typo.stdout).toContain('Closest names\te2e-flags');
    expect(typo.stderr.trimEnd().split('\n').at(-1)).toMatch(/^warning: No model definition matches "e2e-flgas"; did you mean e2e-flags[,?]/);
    const typoJson = json((await run(['match', 'GPT4O', '--offline', '--json'])).stdout);
    expect(typoJson).toMatchObject({ matched: false, winner: null });
    expect(typoJson.suggestions[0]).toBe('gpt-4o');
    expect(json((await run(['match', 'gpt-4o', '--offline', '--json'])).stdout)).not.toHaveProperty('suggestions');
    const expectFails = await run(['match', 'gpt-4o', '--expect', 'e2e-flags']);
    expect(expectFails.exitCode).toBe(9);
    expect(expectFails.stderr).toContain('"gpt-4o" matches "gpt-4o"');
    expect((await run(['match', 'gpt-4o', '--expect', 'gpt-4o'])).exitCode).toBe(0);
  });

  it('offline, adds definitions from --models-file to the built-in catalogue', async () => {
    const dir = tempDir();
    const file = join(dir, 'models.json');
    writeFileSync(file, JSON.stringify([{ name: 'acme-large', match_pattern: '(?i)^acme-large(-\\d+)?$', pricing: { input: 0.000001 } }]));
    const result = await run(['match', 'ACME-large-2', '--offline', '--models-file', file, '--json']);
    expect(json(result.stdout).winner).toMatchObject({ id: 'local:acme-large', source: 'custom' });
    expect(result.stderr).toMatch(/Matched against the built-in catalogue \(\d+ definitions, 1 custom, generated \d{4}-\d\d-\d\d\) with custom ones from /);
    expect(result.stderr).toContain(`with custom ones from ${file}, chosen by --offline.`);
    // With the project's definitions the file is added on top, as if created in the project.
    const onTop = await run(['match', 'acme-large', '--models-file', file, '--json']);
    expect(onTop.exitCode, onTop.stderr).toBe(0);
    expect(json(onTop.stdout)).toMatchObject({ winner: { id: 'local:acme-large' }, definitions: { source: 'project', modelsFile: file } });
  });
});

describe('update and delete', () => {
  it('updates in place on a server with PUT, keeping the id', async () => {
    const id = (await run(['create', '--name', 'e2e-update', '--price', 'input=1/1M'])).stdout.trim();
    const updated = await sent(['update', 'e2e-update', '--price', 'input=1.5/1M', '--price', 'output=3/1M', '--json']);
    expect(updated.exitCode).toBe(0);
    expect(json(updated.stdout)).toMatchObject({ id, inputPrice: 0.0000015, outputPrice: 0.000003 });
    expect(updated.requests.some((line) => line.startsWith(`PUT /api/public/models/${id} 200`))).toBe(true);
    expect(updated.stderr).toContain('in place');
  });

  it('on an older server, changes nothing without --recreate, and re-creates with it', async () => {
    const id = (await run(['create', '--name', 'e2e-old', '--price', 'input=1/1M'], { env: oldEnv })).stdout.trim();
    const refused = await run(['update', id, '--price', 'input=2/1M'], { env: oldEnv });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Langfuse 4.16.0 cannot update a model definition in place');
    expect(json((await run(['get', id, '--json'], { env: oldEnv })).stdout).inputPrice).toBe(0.000001);

    const recreated = await run(['update', id, '--price', 'input=2/1M', '--recreate', '--json'], { env: oldEnv });
    expect(recreated.exitCode).toBe(0);
    const model = json(recreated.stdout);
    expect(model.id).not.toBe(id);
    expect(model).toMatchObject({ modelName: 'e2e-old', inputPrice: 0.000002 });
    expect(recreated.stderr).toContain(`(was ${id})`);
    expect((await run(['get', id], { env: oldEnv })).exitCode).toBe(8);
  });

  it('deletes custom definitions only, and only with confirmation', async () => {
    const id = (await run(['create', '--name', 'e2e-delete', '--price', 'input=1/1M'])).stdout.trim();
    const unconfirmed = await sent(['delete', 'e2e-delete']);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('without confirmation');
    expect(unconfirmed.requests.some((line) => line.startsWith('DELETE'))).toBe(false);

    const builtIn = await run(['delete', builtInDefinitions()[0]!.id, '--yes']);
    expect(builtIn.exitCode).toBe(2);
    expect(builtIn.stderr).toContain('cannot be deleted');
    expect(builtIn.stderr).toContain('Override it instead');

    const deleted = await run(['rm', 'e2e-delete', '--yes']);
    expect(deleted.exitCode).toBe(0);
    expect(deleted.stderr).toContain(`Deleted model definition "e2e-delete" (${id})`);
    expect((await run(['get', id])).exitCode).toBe(8);
  });
});

describe('create refuses what the server would reject or misread: exit 2, nothing sent', () => {
  const base = ['create', '--name', 'e2e-refused', '--price', 'input=1/1M'];
  const cases: Array<[string, string[], string]> = [
    ['an invalid regex', ['--match-pattern', '(?i)^gpt-[4$'], 'not a valid Postgres regular expression'],
    ['openai for a chat model without tokensPerMessage/tokensPerName', ['--tokenizer', 'openai', '--tokenizer-model', 'gpt-4'], 'chat tokenizer model'],
    ['a tokenizer model the server cannot tokenize', ['--tokenizer', 'openai', '--tokenizer-model', 'gpt-4o-mini', '--tokens-per-message', '3', '--tokens-per-name', '1'], 'cannot tokenize with tokenizerModel "gpt-4o-mini"'],
    ['a negative price', ['--price', 'output=-1'], 'is negative'],
    ['a non-numeric price', ['--price', 'output=cheap'], 'must be a number'],
    ['a tokenizer config that is not JSON', ['--tokenizer', 'openai', '--tokenization-config', '{"tokenizerModel":'], 'is not valid JSON'],
  ];
  it.each(cases)('%s', async (_title, extra, message) => {
    const result = await sent([...base, ...extra]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.requests).toEqual([]);
  });

  it('a total price next to input/output prices only with --strict (without it: sent as a tier, with a warning)', async () => {
    const strict = await sent([...base, '--price', 'total=1/1M', '--strict']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('"total" is priced next to "input"');
    expect(strict.requests).toEqual([]);
    const created = await sent(['create', '--name', 'e2e-total', '--price', 'input=1/1M', '--price', 'total=3/1M', '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stderr).toContain('the total cost is then the total price × total units');
    expect(json(created.stdout).pricingTiers[0].prices).toEqual({ input: 0.000001, total: 0.000003 });
  });

  it('a file that spells tokenizerConfig as tokenizationConfig', async () => {
    const file = join(tempDir(), 'typo.json');
    writeFileSync(file, JSON.stringify({ name: 'e2e-typo', match_pattern: '(?i)^e2e-typo$', tokenizer: 'claude', tokenizationConfig: {}, pricing: { input: 1e-6 } }));
    const result = await sent(['create', '--file', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('the field is "tokenizerConfig"');
    expect(result.requests).toEqual([]);
  });

  const warnings: Array<[string, string[], string]> = [
    ['a pattern without (?i)', ['--match-pattern', '^e2e-refused$'], 'pattern-case-sensitive'],
    ['an unanchored pattern', ['--match-pattern', '(?i)e2e-refused'], 'pattern-unanchored'],
    ['an unescaped dot', ['--match-pattern', '(?i)^e2e.refused$'], 'pattern-unescaped-dot'],
    ['a price key that differs from a usual one by case', ['--price', 'Output=1/1M'], 'price-key-case'],
  ];
  it.each(warnings)('with --strict, %s', async (_title, extra, code) => {
    const strict = await sent([...base, ...extra, '--strict']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain(`[${code}]`);
    expect(strict.stderr).toContain('--strict refuses');
    expect(strict.requests).toEqual([]);
  });

  it('without --strict, warns and sends', async () => {
    const result = await sent(['create', '--name', 'E2E-Warned', '--match-pattern', 'E2E-Warned', '--price', 'input=1/1M']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('[pattern-case-sensitive]');
    expect(result.stderr).toContain('[pattern-unanchored]');
    expect(result.requests.filter((line) => line.startsWith('POST /api/public/models 200'))).toHaveLength(1);
  });

  it('a duplicate name is the server\'s refusal, with advice', async () => {
    const result = await run(['create', '--name', 'e2e-flags', '--price', 'input=1/1M']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain("Model name 'e2e-flags' already exists in project");
    expect(result.stderr).toContain("llmobs models update 'e2e-flags'");
  });
});

describe('lint', () => {
  it('reports warnings, shadowed definitions and errors (exit 9) among the custom definitions', async () => {
    await run(['create', '--name', 'e2e-family', '--match-pattern', '(?i)^e2e-fam(-.*)?$', '--price', 'input=1/1M', '--start-date', '2025-01-01']);
    await run(['create', '--name', 'e2e-fam-mini', '--match-pattern', '(?i)^e2e-fam-mini$', '--price', 'input=1/1M']);
    // A definition only the server accepts: the CLI would refuse to create it.
    const raw = await llmobs(['api', 'POST', 'models', '--input', '-'], {
      env,
      input: JSON.stringify({ modelName: 'e2e-no-chat-config', matchPattern: '(?i)^e2e-no-chat-config$', unit: 'TOKENS', inputPrice: 1e-6, tokenizerId: 'openai', tokenizerConfig: { tokenizerModel: 'gpt-4' } }),
    });
    expect(raw.exitCode).toBe(0);

    const result = await run(['lint', '--json']);
    expect(result.exitCode).toBe(9);
    const report = json(result.stdout);
    const find = (name: string, code: string) => report.findings.find((f: { modelName: string; code: string }) => f.modelName === name && f.code === code);
    expect(find('e2e-fam-mini', 'shadowed').message).toContain('"e2e-family"');
    expect(find('e2e-no-chat-config', 'chat-config-missing').severity).toBe('error');
    expect(find('E2E-Warned', 'pattern-unanchored').severity).toBe('warning');
    expect(report.errors).toBeGreaterThanOrEqual(1);
    expect(result.stderr).toContain('custom definitions checked');
  });

  it('checks a file offline', async () => {
    const dir = tempDir();
    const file = join(dir, 'models.yaml');
    writeFileSync(file, "- name: clean\n  match_pattern: '(?i)^clean$'\n  pricing: { input: 0.000001 }\n");
    const clean = await run(['lint', '--offline', '--models-file', file]);
    expect(clean.exitCode).toBe(0);
    expect(clean.stderr).toContain('1 custom definition checked: 0 errors, 0 warnings');
    writeFileSync(file, "- name: loose\n  match_pattern: 'loose'\n  pricing: { input: 0.000001 }\n");
    expect((await run(['lint', '--offline', '--models-file', file])).exitCode).toBe(0);
    expect((await run(['lint', '--offline', '--models-file', file, '--strict'])).exitCode).toBe(9);
  });
});
