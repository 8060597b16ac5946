// Models files in every accepted shape.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Context, defaultDeps } from '../../../src/context.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { loadModelsFile, readModelsFile } from '../../../src/model-definitions/models-file.js';
import { isolatedEnv, tempDir, runInProcess } from '../../helpers/cli.js';

async function contextIn(cwd: string, extra: Partial<ConstructorParameters<typeof Context>[0]> = {}) {
  const ctx = new Context({ ...defaultDeps(), env: isolatedEnv(), cwd, ...extra });
  await ctx.prepare();
  return ctx;
}

function write(dir: string, name: string, content: unknown): string {
  writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return name;
}

describe('loadModelsFile', () => {
  it('reads one spec-shaped definition from YAML as a custom definition in the API shape', async () => {
    const dir = tempDir();
    write(dir, 'one.yaml', "name: mine\nmatch_pattern: '(?i)^mine$'\npricing:\n  input: 0.000001\n  cached_tokens: 0.0000005\n");
    const [def] = (await loadModelsFile(await contextIn(dir), 'one.yaml')).definitions;
    expect(def).toMatchObject({ id: 'local:mine', modelName: 'mine', isLangfuseManaged: false, unit: 'TOKENS', prices: { input: { price: 0.000001 }, cached_tokens: { price: 0.0000005 } } });
  });

  it('reads arrays and saved list pages, keeping ids and managed flags of saved API objects', async () => {
    const dir = tempDir();
    const builtIn = builtInDefinitions()[0]!;
    write(dir, 'page.json', { data: [builtIn, { modelName: 'x', matchPattern: 'x', inputPrice: 1e-6 }], meta: {} });
    write(dir, 'list.json', [{ name: 'dup', match_pattern: 'a', pricing: { input: 1e-6 } }, { name: 'dup', match_pattern: 'b', pricing: { input: 1e-6 } }]);
    const ctx = await contextIn(dir);
    const page = (await loadModelsFile(ctx, 'page.json')).definitions;
    expect(page.map((d) => [d.id, d.isLangfuseManaged])).toEqual([
      [builtIn.id, true],
      ['local:x', false],
    ]);
    expect((await loadModelsFile(ctx, 'list.json')).definitions.map((d) => d.id)).toEqual(['local:dup', 'local:dup#2']);
  });

  it('sets a definition with errors aside, naming it, with a stand-in when its pattern can be read', async () => {
    const dir = tempDir();
    write(dir, 'bad.json', [
      { name: 'ok', match_pattern: 'ok', pricing: { input: 1e-6 } },
      { name: 'broken', match_pattern: '[', tokenizationConfig: {}, pricing: { input: 1e-6 } },
      { name: 'typo', match_pattern: '(?i)^typo$', start_date: '2026-01-01', pricing: { input: 'cheap' } },
    ]);
    const ctx = await contextIn(dir);
    const file = await loadModelsFile(ctx, 'bad.json');
    expect(file.definitions.map((d) => d.modelName)).toEqual(['ok']);
    expect(file.invalid.map((i) => [i.position, i.modelName, i.standIn?.id ?? null])).toEqual([
      [2, 'broken', null],
      [3, 'typo', 'invalid:3'],
    ]);
    expect(file.invalid[0]!.errors.join()).toContain('matchPattern: matchPattern is not a valid Postgres regular expression');
    expect(file.invalid[0]!.errors.join()).toContain('"tokenizationConfig"');
    expect(file.invalid[1]!.standIn).toMatchObject({ matchPattern: '(?i)^typo$', startDate: '2026-01-01', isLangfuseManaged: false, pricingTiers: [] });
    const entries = await readModelsFile(ctx, 'bad.json');
    expect(entries.map((e) => e.definition !== undefined)).toEqual([true, false, false]);
    expect(entries[1]!.issues.map((i) => i.code)).toEqual(['misspelt-tokenizer-config', 'invalid-regex']);
    await expect(loadModelsFile(ctx, 'missing.json')).rejects.toThrow('cannot read missing.json: no such file');
    write(dir, 'scalar.json', '42');
    await expect(loadModelsFile(ctx, 'scalar.json')).rejects.toThrow('must hold a model definition');
  });
});

const json = (text: string) => JSON.parse(text);

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
