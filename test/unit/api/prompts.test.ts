// The prompt API module: version lists compacted, and how it reads prompts from answers a local
// server cannot produce (a label vanishing mid-read, a 404 from something that is not Langfuse,
// labels spread over versions by someone else).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactVersions } from '../../../src/api/prompts.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { recordingAgent } from '../../helpers/recorder.js';

const HOST = 'http://127.0.0.1:9';
const env = () => isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1' });

describe('small parsers', () => {
  it('compacts version lists into ranges', () => {
    expect(compactVersions([4, 1, 2, 3, 7, 9, 10, 10])).toBe('1-4, 7, 9-10');
    expect(compactVersions([])).toBe('');
  });
});

describe('names a URL cannot carry', () => {
  it('refuses to address . and .. (they would become another path), sending nothing', async () => {
    const { agent, requests } = recordingAgent(HOST, () => ({ status: 200, body: {} }));
    for (const name of ['.', '..']) {
      const result = await runInProcess(['prompts', 'get', name], { env: env(), dispatcher: agent });
      expect([result.exitCode, result.stderr]).toEqual([2, expect.stringContaining('cannot be addressed in a URL')]);
    }
    expect(requests).toEqual([]);
    await agent.close();
  });
});

describe('reading labels', () => {
  const meta = { name: 'p', type: 'text', versions: [1, 2], labels: ['latest', 'production'], tags: [], lastUpdatedAt: '2026-01-01T00:00:00.000Z', lastConfig: {} };
  const row = (version: number, labels: string[]) => ({ name: 'p', version, type: 'text', prompt: 'x', config: {}, labels, tags: [] });

  it('fails the precondition (exit 9) when a label disappears between the list and its fetch', async () => {
    const { agent, requests } = recordingAgent(HOST, (request) => {
      if (request.path.startsWith('/api/public/v2/prompts?')) return { status: 200, body: { data: [meta], meta: { page: 1, limit: 1, totalItems: 1, totalPages: 1 } } };
      if (request.path.includes('label=latest')) return { status: 200, body: row(2, ['latest']) };
      return { status: 404, body: { message: "Prompt not found: 'p' with label 'production'", error: 'LangfuseNotFoundError' } };
    });
    const result = await runInProcess(['labels', 'promote', 'p', '--from', 'latest', '--to', 'production'], { env: env(), dispatcher: agent });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain("the label 'production' of prompt 'p' disappeared while the labels were being read");
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    await agent.close();
  });

  it('refuses to plan when two versions claim one label (read during a change), exit 9', async () => {
    const { agent, requests } = recordingAgent(HOST, (request) => {
      if (request.path.startsWith('/api/public/v2/prompts?')) return { status: 200, body: { data: [meta], meta: { page: 1, limit: 1, totalItems: 1, totalPages: 1 } } };
      if (request.path.includes('label=latest')) return { status: 200, body: row(2, ['latest', 'production']) };
      return { status: 200, body: row(1, ['production']) };
    });
    const result = await runInProcess(['labels', 'set', 'p', 'production', '--version', '1'], { env: env(), dispatcher: agent });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain("'production' appears on versions 1 and 2");
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    await agent.close();
  });

  it('keeps a 404 from something that is not the Langfuse API as it is', async () => {
    const { agent, requests } = recordingAgent(HOST, () => ({ status: 404, body: { message: 'Route not here' } }));
    const result = await runInProcess(['prompts', 'get', 'p'], { env: env(), dispatcher: agent });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('Route not here');
    expect(result.stderr).toContain('Check that http://127.0.0.1:9 is a Langfuse server');
    expect(requests).toHaveLength(1);
    await agent.close();
  });
});

describe('creating while others create', () => {
  const conflict = { message: "Failed to create prompt 'p' due to unique constraint failure. Too many concurrent prompt creations. Please add a delay.", error: 'InvalidRequestError' };
  const created = { name: 'p', version: 3, type: 'text', prompt: 'x', config: {}, labels: ['latest'], tags: [] };

  it('tries again after a backoff when the server reports a version collision, and only then', async () => {
    let posts = 0;
    const { agent, requests } = recordingAgent(HOST, () => (++posts <= 2 ? { status: 400, body: conflict } : { status: 201, body: created }));
    const sleeps: number[] = [];
    const result = await runInProcess(['prompts', 'create', 'p', '--text', 'x', '--json'], { env: env(), dispatcher: agent, sleeps });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).version).toBe(3);
    expect(requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(sleeps).toEqual([188, 375]);
    await agent.close();
  });

  it('gives up after --retries with a hint, and never repeats other refusals', async () => {
    const always = recordingAgent(HOST, () => ({ status: 400, body: conflict }));
    const result = await runInProcess(['prompts', 'create', 'p', '--text', 'x', '--retries', '1'], { env: env(), dispatcher: always.agent });
    expect(result.exitCode).toBe(5);
    expect(always.requests).toHaveLength(2);
    expect(result.stderr).toContain('Nothing was created; run the command again.');
    await always.agent.close();

    const other = recordingAgent(HOST, () => ({ status: 400, body: { message: 'Invalid request data', error: [] } }));
    expect((await runInProcess(['prompts', 'create', 'p', '--text', 'x'], { env: env(), dispatcher: other.agent })).exitCode).toBe(5);
    expect(other.requests).toHaveLength(1);
    await other.agent.close();
  });
});

// How status and push read the server: the prompt list, one read per prompt with a file, and one
// more only for a wanted label that is not on the latest version. Checked at the transport with
// answers that the local server cannot give (labels spread over versions by someone else).
const row = (name: string, version: number, prompt: string, labels: string[]) => ({ name, version, type: 'text', prompt, config: {}, labels, tags: [], commitMessage: null });

describe('status reads', () => {
  it('one list page, one read per file, and a label read only where the label is not on the latest version', async () => {
    const metas = [
      { name: 'a', type: 'text', versions: [1, 2], labels: ['latest', 'staging'], tags: [], lastUpdatedAt: '2026-01-01T00:00:00Z', lastConfig: {} },
      { name: 'b', type: 'text', versions: [1, 2, 3], labels: ['latest', 'staging'], tags: [], lastUpdatedAt: '2026-01-01T00:00:00Z', lastConfig: {} },
      { name: 'c', type: 'text', versions: [1], labels: ['latest'], tags: [], lastUpdatedAt: '2026-01-01T00:00:00Z', lastConfig: {} },
    ];
    const { agent, requests } = recordingAgent(HOST, (request) => {
      const url = new URL(request.path, HOST);
      if (url.pathname === '/api/public/v2/prompts') return { status: 200, body: { data: metas, meta: { page: 1, limit: 100, totalItems: 3, totalPages: 1 } } };
      const name = decodeURIComponent(url.pathname.split('/').pop()!);
      const version = url.searchParams.get('version');
      if (name === 'a') return { status: 200, body: row('a', 2, 'A', ['latest', 'staging']) };
      if (name === 'b' && version === '3') return { status: 200, body: row('b', 3, 'B3', ['latest']) };
      if (name === 'b') return { status: 200, body: row('b', 1, 'B', ['staging']) };
      return { status: 200, body: row('c', 1, 'C', ['latest']) };
    });
    const cwd = tempDir();
    mkdirSync(join(cwd, 'prompts'));
    writeFileSync(join(cwd, 'prompts', 'a.md'), 'A\n');
    writeFileSync(join(cwd, 'prompts', 'b.md'), 'B\n');
    writeFileSync(join(cwd, 'prompts', 'c.md'), 'C\n');
    const env = isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1' });
    const result = await runInProcess(['prompts', 'status', '--label', 'staging', '--json'], { env, cwd, dispatcher: agent });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(requests.map((r) => r.path).sort()).toEqual([
      '/api/public/v2/prompts/a?version=2&resolve=false',
      '/api/public/v2/prompts/b?label=staging&resolve=false',
      '/api/public/v2/prompts/b?version=3&resolve=false',
      '/api/public/v2/prompts/c?version=1&resolve=false',
      '/api/public/v2/prompts?page=1&limit=100',
    ]);
    const plan = JSON.parse(result.stdout);
    // b: staging is on v1, which equals the file: in sync although the latest differs.
    expect(plan.prompts.map((p: { name: string; status: string }) => `${p.name} ${p.status}`)).toEqual(['a unchanged', 'b unchanged', 'c labels']);
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
});
