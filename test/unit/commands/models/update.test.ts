// The update paths that need care: built-in definitions, servers without PUT, and a
// delete-and-create that fails half-way.
import { describe, expect, it } from 'vitest';
import { specToDefinition } from '../../../../src/core/models/draft.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { runInProcess } from '../../../helpers/cli.js';
import { fakeModelsApi } from '../../../helpers/fake-models-api.js';

const GPT_4O = builtInDefinitions().find((d) => d.modelName === 'gpt-4o')!;
const OVERRIDE = specToDefinition({ name: 'gpt-4o', match_pattern: '(?i)^gpt-4o$', pricing: { input: 0.000002 }, unit: 'TOKENS', start_date: '2025-01-01T00:00:00.000Z' }, { id: 'override-1', createdAt: '2025-01-01T00:00:00.000Z' });

async function cli(argv: string[], options: Parameters<typeof fakeModelsApi>[0] = {}) {
  const api = fakeModelsApi({ definitions: [OVERRIDE, GPT_4O], ...options });
  const result = await runInProcess(argv, { env: api.env, dispatcher: api.agent });
  return { ...result, requests: api.requests, definitions: api.definitions };
}

describe('built-in definitions', () => {
  it('cannot be updated or deleted: exit 2, nothing sent but the lookup, and the override advice', async () => {
    for (const verb of [['update', '--price', 'input=1/1M'], ['delete', '--yes']]) {
      const r = await cli(['models', verb[0]!, GPT_4O.id, ...verb.slice(1)]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/is a built-in definition/);
      expect(r.stderr).toContain("llmobs models create --name 'gpt-4o'");
      expect(r.requests.map((q) => q.method)).toEqual(['GET']);
    }
  });
});

describe('models update', () => {
  it('says so and sends nothing when the flags change nothing', async () => {
    const r = await cli(['models', 'update', 'override-1', '--price', 'input=2/1M']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Nothing to change');
    expect(r.requests.map((q) => q.method)).toEqual(['GET']);
  });

  it('falls back when PUT answers 405 although the version is unknown', async () => {
    const r = await cli(['models', 'update', 'override-1', '--price', 'input=3/1M', '--recreate'], { version: null, put: false });
    expect(r.exitCode).toBe(0);
    expect(r.requests.map((q) => q.method)).toEqual(['GET', 'GET', 'PUT', 'DELETE', 'POST']);
  });

  it('refuses a rename onto another custom definition\'s name before deleting anything', async () => {
    const other = specToDefinition({ name: 'other', match_pattern: 'other', pricing: { input: 1e-6 }, unit: 'TOKENS' }, { id: 'other-1' });
    const r = await cli(['models', 'update', 'override-1', '--name', 'other', '--recreate'], { version: '4.16.0', definitions: [OVERRIDE, other, GPT_4O] });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('another custom definition is already named "other" (other-1); nothing was changed');
    expect(r.requests.some((q) => q.method === 'DELETE')).toBe(false);
  });

  it('when creating fails after the delete, prints the old definition and how to restore it', async () => {
    const r = await cli(['models', 'update', 'override-1', '--price', 'input=3/1M', '--recreate'], { version: '4.16.0', failCreate: 500 });
    expect(r.exitCode).toBe(5);
    expect(r.definitions.map((d) => d.id)).toEqual([GPT_4O.id]);
    expect(r.stderr).toContain('was deleted, but creating it again failed');
    const json = r.stderr.slice(r.stderr.indexOf('{'), r.stderr.indexOf('\n}') + 2);
    expect(JSON.parse(json)).toEqual(OVERRIDE);
    expect(r.stderr).toContain('llmobs models create --file <file>');
  });

  it('goes on to create when the DELETE answers 404 because an earlier attempt went through', async () => {
    const r = await cli(['models', 'update', 'override-1', '--price', 'input=3/1M', '--recreate'], { version: '4.16.0', deleteLost: true });
    expect(r.exitCode).toBe(0);
    expect(r.requests.map((q) => q.method)).toEqual(['GET', 'GET', 'DELETE', 'POST']);
    expect(r.definitions.map((d) => d.id)).toEqual(['new-1', GPT_4O.id]);
  });

  it('needs something to change', async () => {
    const r = await cli(['models', 'update', 'override-1']);
    expect(r.exitCode).toBe(2);
    expect(r.requests).toEqual([]);
  });
});
