// models delete on a terminal.
import { describe, expect, it } from 'vitest';
import { specToDefinition } from '../../../../src/core/models/draft.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import type { Prompter } from '../../../../src/prompter.js';
import { runInProcess } from '../../../helpers/cli.js';
import { fakeModelsApi } from '../../../helpers/fake-models-api.js';

const GPT_4O = builtInDefinitions().find((d) => d.modelName === 'gpt-4o')!;
const OVERRIDE = specToDefinition({ name: 'gpt-4o', match_pattern: '(?i)^gpt-4o$', pricing: { input: 0.000002 }, unit: 'TOKENS', start_date: '2025-01-01T00:00:00.000Z' }, { id: 'override-1', createdAt: '2025-01-01T00:00:00.000Z' });

describe('models delete on a terminal', () => {
  it('asks first, and deletes nothing when the answer is no', async () => {
    const api = fakeModelsApi({ definitions: [OVERRIDE, GPT_4O] });
    const asked: string[] = [];
    const prompter = { confirm: async ({ message }: { message: string }) => (asked.push(message), false) } as unknown as Prompter;
    const r = await runInProcess(['models', 'delete', 'override-1'], { env: api.env, dispatcher: api.agent, tty: true, prompter });
    expect(r.exitCode).toBe(0);
    expect(asked).toEqual(['Delete model definition "gpt-4o" (override-1)? Generations ingested afterwards no longer match it.']);
    expect(r.stderr).toContain('Nothing deleted.');
    expect(api.requests.map((q) => q.method)).toEqual(['GET']);
  });
});
