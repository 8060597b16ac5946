// The import of a state file from servers before the database.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileError } from '../../../../src/errors.js';
import { STATE_FILE } from '../../../../src/server/state.js';
import { STATE_BACKUP_FILE, Store } from '../../../../src/server/store/index.js';
import { startServer } from '../../../../src/server/index.js';
import { tempDir } from '../../../helpers/cli.js';
import { promptRecord } from '../../../helpers/store-records.js';
import { apiCaller } from '../../../helpers/server-api.js';

const now = () => new Date('2026-11-23T00:00:00Z');
const call = apiCaller(() => {
  throw new Error('pass a target');
});

/** A state file as servers before the database wrote it (schema 1). */
function legacyState(extra: Record<string, unknown> = {}) {
  return {
    schemaVersion: 1,
    project: { id: 'proj-old', name: 'llmobs-local', organization: { id: 'org-old', name: 'llmobs local' }, metadata: { from: 'state' }, createdAt: '2026-01-01T00:00:00.000Z' },
    apiKeys: [{ id: 'key-1', publicKey: 'pk-lf-old', secretKey: 'sk-lf-old', createdAt: '2026-01-01T00:00:00.000Z' }],
    ...extra,
  };
}

const oldKeys = { auth: `Basic ${Buffer.from('pk-lf-old:sk-lf-old').toString('base64')}` };

describe('state files of servers before the database', () => {
  it('imports the project, keys, prompts with their labels and references, and models, and keeps the file as a backup', async () => {
    const dir = tempDir();
    const child = promptRecord({ id: 'c1', name: 'child', prompt: 'kid', labels: ['production', 'latest'] });
    const v1 = promptRecord({ id: 'g1', version: 1, labels: ['production'], tags: ['t'] });
    const v2 = promptRecord({ id: 'g2', version: 2, prompt: 'hi @@@langfusePrompt:name=child|label=production@@@', labels: ['latest'], tags: ['t'] });
    const model = {
      id: 'm1', projectId: 'proj-old', modelName: 'mine', matchPattern: '(?i)^mine$', startDate: null, unit: 'TOKENS', inputPrice: 1, outputPrice: 2, totalPrice: null,
      tokenizerId: null, tokenizerConfig: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
      pricingTiers: [{ id: 'm1_tier_default', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1, output: 2 } }],
    };
    const state = legacyState({
      prompts: [v2, child, v1],
      promptDependencies: [{ id: 'd1', projectId: 'proj-old', parentId: 'g2', childName: 'child', childVersion: null, childLabel: 'production', createdAt: '2026-01-01T00:00:00.000Z' }],
      models: [model],
    });
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(state));

    const server = await startServer({ port: 0, dataDir: dir });
    expect(server).toMatchObject({ created: false, keys: { publicKey: 'pk-lf-old', secretKey: 'sk-lf-old' }, project: { id: 'proj-old' } });
    expect(existsSync(join(dir, STATE_FILE))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, STATE_BACKUP_FILE), 'utf8'))).toEqual(state);
    const got = await call('GET', '/api/public/v2/prompts/greeting?label=latest', undefined, { target: server, ...oldKeys });
    expect(got.body).toMatchObject({ version: 2, prompt: 'hi kid', tags: ['t'], resolutionGraph: { root: { id: 'g2' } } });
    expect((await call('GET', '/api/public/v2/prompts/greeting', undefined, { target: server, ...oldKeys })).body.version).toBe(1);
    expect((await call('DELETE', '/api/public/v2/prompts/child', undefined, { target: server, ...oldKeys, unchecked: true })).status).toBe(400);
    expect((await call('GET', '/api/public/models/m1', undefined, { target: server, ...oldKeys })).body).toMatchObject({ modelName: 'mine', inputPrice: 1 });
    expect((await call('POST', '/api/public/v2/prompts', { name: 'greeting', prompt: 'three' }, { target: server, ...oldKeys })).body.version).toBe(3);
    await server.close();

    // The backup is not imported again: the database is the store now.
    const again = await startServer({ port: 0, dataDir: dir });
    expect((await call('GET', '/api/public/v2/prompts/greeting?label=latest', undefined, { target: again, ...oldKeys })).body.version).toBe(3);
    await again.close();
  });

  it('opens state files written before prompts, references and models existed', async () => {
    const dir = tempDir();
    // Before references were stored, a version's tags were just text: nothing references anything.
    writeFileSync(join(dir, STATE_FILE), JSON.stringify(legacyState({ prompts: [promptRecord({ id: 'g1', prompt: 'x @@@langfusePrompt:name=gone|version=1@@@', labels: ['latest'] })] })));
    const server = await startServer({ port: 0, dataDir: dir });
    expect((await call('GET', '/api/public/v2/prompts/greeting?label=latest', undefined, { target: server, ...oldKeys })).body).toMatchObject({ resolutionGraph: null });
    expect((await call('GET', '/api/public/models?limit=1', undefined, { target: server, ...oldKeys })).status).toBe(200);
    await server.close();

    const bare = tempDir();
    writeFileSync(join(bare, STATE_FILE), JSON.stringify(legacyState()));
    const empty = await startServer({ port: 0, dataDir: bare });
    expect((await call('GET', '/api/public/v2/prompts', undefined, { target: empty, ...oldKeys })).body.data).toEqual([]);
    expect((await call('POST', '/api/public/v2/prompts', { name: 'fresh', prompt: 'y' }, { target: empty, ...oldKeys })).body.version).toBe(1);
    await empty.close();
  });

  it('leaves a corrupt or foreign state file untouched, creates nothing, and says so', () => {
    for (const text of ['{"schemaVersion": 1, "proj', JSON.stringify({ schemaVersion: 7, project: {} })]) {
      const dir = tempDir();
      writeFileSync(join(dir, STATE_FILE), text);
      expect(() => Store.open({ dataDir: dir, now })).toThrow(FileError);
      expect(readFileSync(join(dir, STATE_FILE), 'utf8')).toBe(text);
      expect(readdirSync(dir)).toEqual([STATE_FILE]);
    }
  });
});
