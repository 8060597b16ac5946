// The contract checker itself: it must catch what a real server would reject or silently drop.
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { checkRequest, checkResponse } from '../helpers/contract.js';

const model = { modelName: 'm', matchPattern: '(?i)^m$', unit: 'TOKENS', inputPrice: 0.001, outputPrice: 0.002 };

describe('contract checker', () => {
  it('accepts a valid model create body and catches misspelled, dropped and combined fields', () => {
    expect(checkRequest('POST', '/api/public/models', model)).toEqual([]);
    expect(checkRequest('POST', '/api/public/models', { ...model, tokenizationConfig: {} })).toEqual([
      { path: 'body.tokenizationConfig', message: 'not a field of the contract (a server would drop it)' },
    ]);
    expect(checkRequest('POST', '/api/public/models', { ...model, unit: undefined })).toEqual([{ path: 'body.unit', message: 'required by the server' }]);
    expect(checkRequest('POST', '/api/public/models', { ...model, totalPrice: 1 }).map((i) => i.path)).toContain('body.totalPrice');
    expect(checkRequest('POST', '/api/public/models', { ...model, name: 'spec-shaped' }).length).toBeGreaterThan(0);
    const tiers = { modelName: 'm', matchPattern: 'm', unit: 'TOKENS', pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1, input_cached_tokens: 0.5 } }] };
    expect(checkRequest('PUT', '/api/public/models/abc', tiers)).toEqual([]);
    expect(checkRequest('POST', '/api/public/models', { ...tiers, inputPrice: 1 }).length).toBeGreaterThan(0);
  });

  it('checks prompt bodies, placeholders, labels and the label PATCH', () => {
    expect(checkRequest('POST', '/api/public/v2/prompts', { name: 'a/b', type: 'text', prompt: 'hi {{x}}', labels: ['production'] })).toEqual([]);
    const chat = { name: 'c', type: 'chat', prompt: [{ role: 'system', content: 'x' }, { type: 'placeholder', name: 'history' }] };
    expect(checkRequest('POST', '/api/public/v2/prompts', chat)).toEqual([]);
    expect(checkRequest('POST', '/api/public/v2/prompts', { ...chat, type: undefined }).length).toBeGreaterThan(0);
    expect(checkRequest('POST', '/api/public/v2/prompts', { ...chat, prompt: [{ name: 'history' }] })).toContainEqual({ path: 'body.prompt.0.type', message: 'a placeholder must carry type "placeholder"' });
    expect(checkRequest('POST', '/api/public/v2/prompts', { name: 'a', prompt: 'x', labels: ['Prod'] })).toContainEqual({ path: 'body.labels.0', message: 'invalid label "Prod"' });
    expect(checkRequest('PATCH', '/api/public/v2/prompts/a%2Fb/versions/2', { newLabels: ['production'] })).toEqual([]);
    expect(checkRequest('PATCH', '/api/public/v2/prompts/a/versions/x', { newLabels: [] })).toContainEqual({ path: 'path.version', message: 'must be an integer' });
    expect(checkRequest('PATCH', '/api/public/v2/prompts/a/versions/1', { labels: ['x'] }).length).toBeGreaterThan(0);
  });

  it('checks query parameters', () => {
    expect(checkRequest('GET', '/api/public/models?page=2&limit=100', undefined)).toEqual([]);
    expect(checkRequest('GET', '/api/public/models?limit=101', undefined)).toContainEqual({ path: 'query.limit', message: 'out of range' });
    expect(checkRequest('GET', '/api/public/v2/prompts?name=x&labels=y', undefined)).toContainEqual({ path: 'query.labels', message: 'unknown query parameter' });
    expect(checkRequest('GET', '/api/public/v2/prompts/x?version=1&label=p', undefined)).toContainEqual({ path: 'query', message: 'version and label together give 400' });
    expect(checkRequest('GET', `/api/public/v2/prompts?fromUpdatedAt=${encodeURIComponent('2026-05-01T09:30:00+02:00')}&toUpdatedAt=2026-06-01T00:00:00Z`, undefined)).toEqual([]);
    expect(checkRequest('GET', '/api/public/v2/prompts?fromUpdatedAt=2026-05-01T00:00:00', undefined)).toContainEqual({ path: 'query.fromUpdatedAt', message: 'the server needs an ISO datetime with Z or an offset' });
    expect(checkRequest('GET', '/api/public/nothing', undefined)).toHaveLength(1);
  });

  it('checks answers: the server\'s DELETE model answer (not the OpenAPI file\'s 204), and answers without a body', () => {
    expect(checkResponse('DELETE', '/api/public/models/abc', 200, { message: 'Model successfully deleted' })).toEqual([]);
    expect(checkResponse('DELETE', '/api/public/models/abc', 200, {})).toEqual([{ path: 'body.message', message: 'required' }]);
    expect(checkResponse('DELETE', '/api/public/models/abc', 200, undefined)).toEqual([{ path: 'body', message: 'a body is expected' }]);
    expect(checkResponse('DELETE', '/api/public/models/abc', 204, undefined)).toEqual([{ path: '(response)', message: 'status 204 is not a documented success' }]);
    expect(checkResponse('DELETE', '/api/public/v2/prompts/a', 204, undefined)).toEqual([]);
    expect(checkResponse('DELETE', '/api/public/v2/prompts/a', 204, { message: 'x' })).toEqual([{ path: 'body', message: 'status 204 has no body' }]);
    expect(checkResponse('GET', '/api/public/models/abc', 200, undefined)).toEqual([{ path: 'body', message: 'a body is expected' }]);
  });

  it('knows the answers of the ingestion and read routes', () => {
    expect(checkResponse('POST', '/api/public/ingestion', 207, { successes: [{ id: 'e', status: 201 }], errors: [] })).toEqual([]);
    expect(checkResponse('POST', '/api/public/ingestion', 207, { successes: [{ id: 'e' }] })).toEqual([
      { path: 'body.errors', message: 'required' },
      { path: 'body.successes.0.status', message: 'required' },
    ]);
    expect(checkResponse('GET', '/api/public/traces', 200, { data: [] })).toEqual([{ path: 'body.meta', message: 'required' }]);
    expect(checkResponse('GET', '/api/public/v2/observations', 200, { data: [{ id: 'o' }], meta: {} }).map((i) => i.path)).toContain('body.data.0.traceId');
    expect(checkResponse('POST', '/api/public/scores', 200, { id: 7 })).toEqual([{ path: 'body.id', message: 'must be a string' }]);
    expect(checkRequest('GET', '/api/public/traces?filter=[]&fields=core&orderBy=timestamp.asc', undefined)).toEqual([]);
  });

  it('finds the local server answers conform', async () => {
    const server = await startServer({ port: 0, ephemeral: true });
    try {
      const auth = `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;
      for (const path of ['/api/public/health', '/api/public/projects']) {
        const response = await fetch(server.url + path, { headers: { authorization: auth } });
        expect(checkResponse('GET', path, response.status, await response.json())).toEqual([]);
      }
      const headers = { authorization: auth, 'content-type': 'application/json' };
      const body = JSON.stringify({ modelName: 'm', matchPattern: '(?i)^m$', unit: 'TOKENS', inputPrice: 0.001 });
      const created = (await (await fetch(`${server.url}/api/public/models`, { method: 'POST', headers, body })).json()) as { id: string };
      const path = `/api/public/models/${created.id}`;
      const deleted = await fetch(server.url + path, { method: 'DELETE', headers });
      expect(checkResponse('DELETE', path, deleted.status, await deleted.json())).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('recordingAgent', () => {
  it('captures what the CLI sends', async () => {
    const { recordingAgent } = await import('../helpers/recorder.js');
    const { runInProcess, isolatedEnv } = await import('../helpers/cli.js');
    const { agent, requests } = recordingAgent('http://127.0.0.1:9', () => ({ status: 200, body: { ok: true } }));
    const env = isolatedEnv({ LANGFUSE_HOST: 'http://127.0.0.1:9', LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1' });
    const result = await runInProcess(['api', 'POST', 'models', '-f', 'modelName=m'], { env, dispatcher: agent });
    expect(result.exitCode).toBe(0);
    expect(requests).toEqual([expect.objectContaining({ method: 'POST', path: '/api/public/models', body: { modelName: 'm' } })]);
    expect(checkRequest(requests[0]!.method, requests[0]!.path, requests[0]!.body).map((i) => i.path)).toContain('body.matchPattern');
  });
});
