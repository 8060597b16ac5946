// How status and push read the server: the prompt list, one read per prompt with a file, and one
// more only for a wanted label that is not on the latest version. Checked at the transport with
// answers that the local server cannot give (labels spread over versions by someone else).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { recordingAgent } from '../../helpers/recorder.js';

const HOST = 'http://127.0.0.1:9';
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
