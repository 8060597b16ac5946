// models pull, status and push against the local server (Langfuse 4.35 with PUT, and 4.16
// without): pull then push sends nothing, a change is one PUT, --prune deletes, and a server
// without PUT is told apart and replaced only with --recreate.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { isolatedEnv, runInProcess, tempDir } from '../helpers/cli.js';
import { checkRequest } from '../helpers/contract.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { type Recorded, recordingDispatcher } from '../helpers/recorder.js';

let server: RunningServer;
let cwd: string;
const recorder = recordingDispatcher();

afterEach(async () => {
  await server.close();
});

async function start(apiVersion?: string) {
  server = await startServer({ port: 0, ephemeral: true, ...(apiVersion ? { apiVersion } : {}) });
  cwd = tempDir();
}

async function run(argv: string[], host?: string) {
  const env = isolatedEnv({ LANGFUSE_HOST: host ?? server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
  const start = recorder.requests.length;
  const result = await runInProcess(argv, { env, cwd, dispatcher: recorder.dispatcher });
  const sent = recorder.requests.slice(start);
  for (const r of sent) expect(checkRequest(r.method, r.path, r.body), `${r.method} ${r.path}`).toEqual([]);
  return { ...result, sent, writes: sent.filter((r: Recorded) => r.method !== 'GET') };
}

const auth = () => `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;
async function createModel(body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await fetch(`${server.url}/api/public/models`, { method: 'POST', headers: { authorization: auth(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as { id: string };
}
async function customModels(): Promise<Array<Record<string, any>>> {
  const response = await fetch(`${server.url}/api/public/models?limit=100`, { headers: { authorization: auth() } });
  const page = (await response.json()) as { data: Array<Record<string, any>>; meta: { totalPages: number } };
  const all = [...page.data];
  for (let p = 2; p <= page.meta.totalPages; p++) {
    all.push(...((await (await fetch(`${server.url}/api/public/models?limit=100&page=${p}`, { headers: { authorization: auth() } })).json()) as { data: Array<Record<string, any>> }).data);
  }
  return all.filter((m) => !m.isLangfuseManaged);
}

const seed = async () => {
  const flat = await createModel({ modelName: 'my-gpt', matchPattern: '(?i)^my-gpt$', unit: 'TOKENS', inputPrice: 0.000002, outputPrice: 0.000008, tokenizerId: 'openai', tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 } });
  const tiered = await createModel({
    modelName: 'my-claude',
    matchPattern: '(?i)^my-claude$',
    unit: 'TOKENS',
    startDate: '2026-01-01',
    pricingTiers: [
      { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000003, output: 0.000015, input_cache_read: 0.0000003 } },
      { name: 'Long', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 200000, caseSensitive: false }], prices: { input: 0.000006, output: 0.0000225, input_cache_read: 0.0000006 } },
    ],
  });
  return { flat, tiered };
};

describe('models pull / status / push', () => {
  it('pull writes only the project\'s own definitions; pull then push sends nothing; status --exit-code is 0', async () => {
    await start();
    const { flat } = await seed();
    const pulled = await run(['models', 'pull']);
    expect(pulled.exitCode).toBe(0);
    const yaml = readFileSync(join(cwd, 'models.yaml'), 'utf8');
    expect(yaml).toContain(`- id: ${flat.id}\n  modelName: my-gpt\n  matchPattern: (?i)^my-gpt$\n  unit: TOKENS\n`);
    expect(yaml).toContain('  prices:\n    input: 0.000002\n    output: 0.000008\n');
    expect(yaml).not.toContain('gpt-4o-mini');
    const status = await run(['models', 'status', '--exit-code']);
    expect(status.exitCode).toBe(0);
    expect(status.stderr).toContain('In sync');
    const pushed = await run(['models', 'push']);
    expect(pushed.exitCode).toBe(0);
    expect(pushed.writes).toEqual([]);
  });

  it('a changed price is one PUT in place; a new entry is created; --prune deletes what the file dropped; a second push sends nothing', async () => {
    await start();
    const { flat, tiered } = await seed();
    await run(['models', 'pull', '--file', 'models.json']);
    const entries = JSON.parse(readFileSync(join(cwd, 'models.json'), 'utf8')) as Array<Record<string, any>>;
    const edited = entries.filter((e) => e.id !== tiered.id).map((e) => (e.id === flat.id ? { ...e, prices: { input: 0.0000025, output: 0.00001 } } : e));
    edited.push({ modelName: 'new-model', matchPattern: '(?i)^new-model$', unit: 'TOKENS', prices: { input: 0.000001 } });
    writeFileSync(join(cwd, 'models.json'), JSON.stringify(edited, null, 2));

    const status = await run(['models', 'status', '--file', 'models.json', '--exit-code']);
    expect(status.exitCode).toBe(9);
    expect(status.stdout).toMatch(/changed\tmy-gpt/);
    expect(status.stdout).toMatch(/new\tnew-model/);
    expect(status.stdout).toMatch(/server only\tmy-claude/);
    expect(status.stdout).toContain('-  "inputPrice": 0.000002');

    const dry = await run(['models', 'push', '--file', 'models.json', '--prune', '--dry-run']);
    expect(dry.writes).toEqual([]);
    const pushed = await run(['models', 'push', '--file', 'models.json', '--prune']);
    expect(pushed.exitCode).toBe(0);
    expect(pushed.writes.map((w) => `${w.method} ${w.path}`)).toEqual([`PUT /api/public/models/${flat.id}`, 'POST /api/public/models', `DELETE /api/public/models/${tiered.id}`]);
    const after = await customModels();
    expect(after.map((m) => m.modelName).sort()).toEqual(['my-gpt', 'new-model']);
    expect(after.find((m) => m.modelName === 'my-gpt')).toMatchObject({ id: flat.id, inputPrice: 0.0000025 });
    const again = await run(['models', 'push', '--file', 'models.json', '--prune']);
    expect(again.writes).toEqual([]);
  });

  it('--prune refuses a file without definitions, which would delete every one (a wrong file, a failed step), dry run too', async () => {
    await start();
    await seed();
    writeFileSync(join(cwd, 'models.yaml'), '[]\n');
    for (const extra of [['--dry-run'], []]) {
      const pushed = await run(['models', 'push', '--prune', ...extra]);
      expect(pushed.exitCode).toBe(2);
      expect(pushed.stderr).toContain("models.yaml has no definitions: --prune would delete all 2 of the project's own definitions; nothing was sent");
      expect(pushed.writes).toEqual([]);
    }
    expect(await customModels()).toHaveLength(2);
    // Without --prune an empty file changes nothing, and is no error.
    expect((await run(['models', 'push'])).exitCode).toBe(0);
  });

  it('matches by modelName when the file has no id', async () => {
    await start();
    const { flat } = await seed();
    writeFileSync(join(cwd, 'models.yaml'), '- modelName: my-gpt\n  matchPattern: (?i)^my-gpt$\n  unit: TOKENS\n  prices: {input: 0.000009}\n');
    const pushed = await run(['models', 'push']);
    expect(pushed.writes.map((w) => `${w.method} ${w.path}`)).toEqual([`PUT /api/public/models/${flat.id}`]);
    // Without --prune, my-claude stays.
    expect((await customModels()).map((m) => m.modelName).sort()).toEqual(['my-claude', 'my-gpt']);
  });

  it('runs the definition checks first: every error of every entry, exit 2, nothing sent', async () => {
    await start();
    writeFileSync(
      join(cwd, 'models.yaml'),
      '- modelName: a\n  matchPattern: "(unclosed"\n  unit: TOKENS\n  prices: {input: 1e-6}\n- modelName: b\n  matchPattern: (?i)^b$\n  unit: TOKENS\n- modelName: c\n  matchPattern: (?i)^c$\n  unit: TOKENS\n  tokenizationConfig: {}\n  prices: {input: 1e-6}\n',
    );
    const pushed = await run(['models', 'push']);
    expect(pushed.exitCode).toBe(2);
    expect(pushed.sent).toEqual([]);
    expect(pushed.stderr).toContain('definition 1 ("a"), matchPattern');
    expect(pushed.stderr).toContain('definition 2 ("b"), prices: The definition has no prices');
    expect(pushed.stderr).toContain('definition 3 ("c"), tokenizerConfig');
  });

  it('pull does not overwrite a file that differs without --force', async () => {
    await start();
    await seed();
    writeFileSync(join(cwd, 'models.yaml'), '[]\n');
    const kept = await run(['models', 'pull']);
    expect(kept.exitCode).toBe(9);
    expect(readFileSync(join(cwd, 'models.yaml'), 'utf8')).toBe('[]\n');
    expect((await run(['models', 'pull', '--force'])).exitCode).toBe(0);
    expect(readFileSync(join(cwd, 'models.yaml'), 'utf8')).toContain('my-claude');
  });
});

describe('models push through a failure', () => {
  it('stops at a 500, says what was done and what not, and a re-run completes', async () => {
    await start();
    await seed();
    await run(['models', 'pull']);
    writeFileSync(join(cwd, 'models.yaml'), readFileSync(join(cwd, 'models.yaml'), 'utf8').replaceAll('0.000002', '0.000005').replace('0.000003', '0.000004'));
    let puts = 0;
    const proxy = await startFaultProxy(server.url, (request) => (request.method === 'PUT' && ++puts === 2 ? { kind: 'answer', status: 500 } : { kind: 'pass' }));
    try {
      const failed = await run(['models', 'push', '--json'], proxy.url);
      expect(failed.exitCode).toBe(5);
      expect(failed.stderr).toMatch(/push stopped at "my-gpt" \(changed\)\. Done 1 of 2: my-claude\./);
      // Scripts get the same report as prompts push gives: what was done, what failed, what was not done.
      expect(JSON.parse(failed.stdout)).toMatchObject({ dryRun: false, done: [{ status: 'replaced', modelName: 'my-claude' }], unchanged: 0, failed: { status: 'changed', modelName: 'my-gpt' }, notDone: [] });
      const rerun = await run(['models', 'push']);
      expect(rerun.exitCode).toBe(0);
      expect(rerun.writes.map((w) => w.method)).toEqual(['PUT']);
      expect((await run(['models', 'status', '--exit-code'])).exitCode).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('models push on a server without PUT (Langfuse 4.16)', () => {
  it('says so and sends nothing; --recreate deletes and creates, and says it is not atomic', async () => {
    await start('4.16.0');
    const { flat } = await seed();
    await run(['models', 'pull']);
    writeFileSync(join(cwd, 'models.yaml'), readFileSync(join(cwd, 'models.yaml'), 'utf8').replace('input: 0.000002', 'input: 0.000004'));
    const refused = await run(['models', 'push']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Langfuse 4.16.0 cannot replace a model definition in place');
    expect(refused.stderr).toContain('not atomic');
    expect(refused.writes).toEqual([]);

    const recreated = await run(['models', 'push', '--recreate']);
    expect(recreated.exitCode).toBe(0);
    expect(recreated.writes.map((w) => `${w.method} ${w.path}`)).toEqual([`DELETE /api/public/models/${flat.id}`, 'POST /api/public/models']);
    expect(recreated.stderr).toContain('not atomic');
    const models = await customModels();
    const gpt = models.find((m) => m.modelName === 'my-gpt')!;
    expect(gpt.id).not.toBe(flat.id);
    expect(gpt.inputPrice).toBe(0.000004);
  });
});
