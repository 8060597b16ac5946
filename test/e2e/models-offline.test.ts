// `llmobs models list --offline`: the built-in catalogue, browsed with the built binary and no
// configuration at all, in the pages and shapes of `models list` against a server.
import { describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../../src/data/catalogue.js';
import { startServer } from '../../src/server/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';
import { isolatedEnv } from '../helpers/cli.js';

const list = (args: string[], env = isolatedEnv()) => llmobs(['models', 'list', '--offline', ...args], { env });
const json = (text: string) => JSON.parse(text) as { data: Array<Record<string, unknown>>; meta: Record<string, number> };

const BUILT_IN = builtInDefinitions();
// The server's order for definitions without unit or start date: by name, then id.
const SORTED = JSON.parse(JSON.stringify([...BUILT_IN].sort((a, b) => (a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : a.id < b.id ? -1 : 1)))) as Array<Record<string, unknown>>;

describe('models list --offline, with no profile, keys or server', () => {
  it('prints the first page of the catalogue, as the server pages it, and says how to get the rest', async () => {
    const result = await list(['--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const page = json(result.stdout);
    expect(Object.keys(page)).toEqual(['data', 'meta']);
    expect(page.meta).toEqual({ page: 1, limit: 50, totalItems: BUILT_IN.length, totalPages: Math.ceil(BUILT_IN.length / 50) });
    expect(page.data).toEqual(SORTED.slice(0, 50));
    expect(result.stderr).toBe(`Showing 50 of ${BUILT_IN.length} model definitions. More: --limit ${BUILT_IN.length}, or --all\n`);
  });

  it('honours --all, --limit and --page', async () => {
    const all = json((await list(['--all', '--json'])).stdout);
    expect(all.data).toEqual(SORTED);
    expect(all.data.every((model) => model.isLangfuseManaged === true)).toBe(true);
    expect(json((await list(['--limit', '120', '--json'])).stdout).data).toEqual(SORTED.slice(0, 120));
    const third = await list(['--page', '3', '--limit', '10', '--json']);
    expect(json(third.stdout)).toEqual({ data: SORTED.slice(20, 30), meta: { page: 3, limit: 10, totalItems: BUILT_IN.length, totalPages: Math.ceil(BUILT_IN.length / 10) } });
    expect(third.stderr).toContain('Page 3 of');
    const refused = await list(['--all', '--limit', '5']);
    expect(refused.exitCode).toBe(2);
  });

  it('with --managed lists every definition; with --custom none, and says why', async () => {
    expect(json((await list(['--managed', '--all', '--json'])).stdout).data).toEqual(SORTED);
    const custom = await list(['--custom', '--json']);
    expect(custom.exitCode).toBe(0);
    expect(json(custom.stdout).data).toEqual([]);
    expect(custom.stderr).toContain('No custom definitions offline: the built-in catalogue has only built-in ones.');
    const text = await list(['--custom']);
    expect([text.exitCode, text.stdout]).toEqual([0, '']);
    expect(text.stderr).toContain('No custom definitions offline');
  });

  it('prints the same table as against a server, and says where the definitions come from', async () => {
    const result = await list(['--limit', '3']);
    expect(result.exitCode).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.map((row) => [row[0], row[4], row[5]])).toEqual(SORTED.slice(0, 3).map((model) => [model.modelName, 'built-in', model.id]));
    expect(result.stderr).toMatch(/From the built-in catalogue of this llmobs \(generated \d{4}-\d\d-\d\d\), not from a server\./);
  });

  it('never asks a server, even one configured that does not answer', async () => {
    const env = isolatedEnv({ LANGFUSE_HOST: 'http://127.0.0.1:9', LANGFUSE_PUBLIC_KEY: 'pk-lf-x', LANGFUSE_SECRET_KEY: 'sk-lf-x' });
    const result = await list(['--limit', '1', '--json'], env);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(json(result.stdout).data).toEqual(SORTED.slice(0, 1));
  });

  it('lists what the local server lists as its built-in definitions, page for page', async () => {
    const server = await startServer({ port: 0, ephemeral: true });
    try {
      const env = await profileEnv(server);
      for (const args of [['--managed', '--all'], ['--page', '2'], ['--page', '4', '--limit', '7']]) {
        const online = await llmobs(['models', 'list', ...args, '--json'], { env });
        expect(online.exitCode, online.stderr).toBe(0);
        expect(json((await list([...args, '--json'])).stdout), args.join(' ')).toEqual(json(online.stdout));
      }
    } finally {
      await server.close();
    }
  });
});
