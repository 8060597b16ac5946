// Names and ids: an exact id first, a shared name ambiguous, an unknown one with similar names.
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

describe('<id|name>', () => {
  it('an exact id wins, without reading the list', async () => {
    const r = await cli(['models', 'get', GPT_4O.id, '--json']);
    expect(JSON.parse(r.stdout).id).toBe(GPT_4O.id);
    expect(r.requests).toHaveLength(1);
  });

  it('a name two definitions share is ambiguous for get: exit 2 with the candidates', async () => {
    const r = await cli(['models', 'get', 'gpt-4o']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"gpt-4o" is the name of 2 model definitions');
    expect(r.stderr).toContain('override-1  custom');
    expect(r.stderr).toContain(`${GPT_4O.id}  built-in`);
    const json = await cli(['models', 'get', 'gpt-4o', '--json']);
    expect(JSON.parse(json.stderr).error.details.map((c: { id: string }) => c.id)).toEqual(['override-1', GPT_4O.id]);
  });

  it('update and delete pick the one custom definition of that name', async () => {
    const r = await cli(['models', 'delete', 'gpt-4o', '--yes']);
    expect(r.exitCode).toBe(0);
    expect(r.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual(['/api/public/models/override-1']);
  });

  it('an unknown name is not found (exit 8), with similar names as a hint', async () => {
    const r = await cli(['models', 'get', 'GPT-4O']);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain('no model definition has the id or name "GPT-4O"');
    expect(r.stderr).toContain('Similar: "gpt-4o"');
  });
});
