// The local server's prompt endpoints against API.md section 4: statuses, bodies, label moves,
// and every 2xx answer checked against the contract's response schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { tempDir } from '../../../helpers/cli.js';
import { apiCaller } from '../../../helpers/server-api.js';

let server: RunningServer;
const at = (name: string) => `/api/public/v2/prompts/${encodeURIComponent(name)}`;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
});
afterAll(() => server.close());

/** Sends a request, and checks both it and a 2xx answer against the contract. */
const call = apiCaller(() => server);

const create = (body: Record<string, unknown>, options?: { target?: RunningServer; unchecked?: boolean }) => call('POST', '/api/public/v2/prompts', body, options);

describe('POST /api/public/v2/prompts', () => {
  it('creates version 1 and answers 201 with the raw row, latest included, no resolutionGraph', async () => {
    const created = await create({ name: 'p-create', type: 'text', prompt: 'Hi {{name}}', labels: ['production'], config: { t: 1 }, commitMessage: 'first' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['id', 'createdAt', 'updatedAt', 'projectId', 'createdBy', 'prompt', 'name', 'version', 'type', 'isActive', 'config', 'tags', 'labels', 'commitMessage']);
    expect(created.body).toMatchObject({
      projectId: server.project.id,
      createdBy: 'API',
      name: 'p-create',
      version: 1,
      type: 'text',
      isActive: null,
      config: { t: 1 },
      tags: [],
      labels: ['production', 'latest'],
      commitMessage: 'first',
    });
  });

  it('numbers new versions, moves latest and requested labels, and keeps the type', async () => {
    await create({ name: 'p-move', prompt: 'v1', labels: ['production', 'staging'] });
    const second = await create({ name: 'p-move', prompt: 'v2', labels: ['staging', 'staging'] });
    expect(second.body).toMatchObject({ version: 2, labels: ['staging', 'latest'], config: {}, commitMessage: null });
    const first = await call('GET', `${at('p-move')}?version=1`);
    expect(first.body.labels).toEqual(['production']);

    const chat = await create({ name: 'p-move', type: 'chat', prompt: [{ role: 'user', content: 'x' }] }, { unchecked: true });
    expect(chat).toEqual({ status: 400, body: { message: 'Previous versions have different prompt type. Create a new prompt with a different name.', error: 'InvalidRequestError' } });
  });

  it('inherits tags when omitted and rewrites them on every version when given', async () => {
    await create({ name: 'p-tags', prompt: 'a', tags: ['x'] });
    expect((await create({ name: 'p-tags', prompt: 'b' })).body.tags).toEqual(['x']);
    expect((await create({ name: 'p-tags', prompt: 'c', tags: [] })).body.tags).toEqual([]);
    expect((await call('GET', `${at('p-tags')}?version=1`)).body.tags).toEqual([]);
  });

  it('de-duplicates tags and labels on create, as the server does', async () => {
    const created = await create({ name: 'p-dedup', prompt: 'a', tags: ['x', 'y', 'x'], labels: ['qa', 'qa'] });
    expect(created.body).toMatchObject({ tags: ['x', 'y'], labels: ['qa', 'latest'] });
    // The same set in another order changes nothing on earlier versions; another set rewrites them all.
    const reordered = await create({ name: 'p-dedup', prompt: 'b', tags: ['y', 'x'] });
    expect(reordered.body.tags).toEqual(['y', 'x']);
    expect((await call('GET', `${at('p-dedup')}?version=1`)).body.tags).toEqual(['x', 'y']);
    await create({ name: 'p-dedup', prompt: 'c', tags: ['z', 'z'] });
    expect((await call('GET', `${at('p-dedup')}?version=1`)).body.tags).toEqual(['z']);
  });

  it('stores chat messages without type and keeps placeholders', async () => {
    const created = await create({
      name: 'p-chat',
      type: 'chat',
      prompt: [{ type: 'chatmessage', role: 'system', content: 'Be {{tone}}' }, { type: 'placeholder', name: 'history' }],
    });
    expect(created.body.prompt).toEqual([{ role: 'system', content: 'Be {{tone}}' }, { type: 'placeholder', name: 'history' }]);
    const clash = await create({ name: 'p-clash', type: 'chat', prompt: [{ role: 'user', content: '{{history}}' }, { type: 'placeholder', name: 'history' }] });
    expect(clash).toEqual({
      status: 400,
      body: { message: 'Cannot create prompt, variables and placeholders must be unique, the following are not: history', error: 'InvalidRequestError' },
    });
  });

  it('answers 400 "Invalid request data" with issues for bad bodies, and creates nothing', async () => {
    const cases: Array<[Record<string, unknown>, Array<string | number>]> = [
      [{ prompt: 'x' }, ['name']],
      [{ name: 'new', prompt: 'x' }, ['name']],
      [{ name: 'a//b', prompt: 'x' }, ['name']],
      [{ name: 'p-bad', prompt: 'x', labels: ['Prod'] }, ['labels', 0]],
      [{ name: 'p-bad', prompt: [{ role: 'user', content: 'x' }] }, ['type']],
      [{ name: 'p-bad', type: 'chat', prompt: [{ name: 'history' }] }, ['prompt', 0]],
      [{ name: 'p-bad', type: 'chat', prompt: [{ type: 'placeholder', name: '1x' }] }, ['prompt', 0, 'name']],
      [{ name: 'p-bad', prompt: 'x', commitMessage: 'm'.repeat(501) }, ['commitMessage']],
    ];
    // The body is a union of the text and the chat shape: when neither fits, zod reports both
    // branches' issues inside one invalid_union issue, as the server does.
    const paths = (issues: Array<{ path: unknown; errors?: Array<Array<{ path: unknown }>> }>): unknown[] =>
      issues.flatMap((issue) => [issue.path, ...(issue.errors ?? []).flatMap((branch) => paths(branch as never))]);
    for (const [body, path] of cases) {
      const answer = await create(body, { unchecked: true });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Invalid request data');
      expect(paths(answer.body.error)).toContainEqual(path);
    }
    expect((await call('GET', '/api/public/v2/prompts?name=p-bad')).body.data).toEqual([]);
  });

  it('never loses or repeats a version when 20 creates of one name arrive at once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ name: 'p-race', prompt: `v${i}` })));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    expect(answers.map((answer) => answer.body.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const listed = await call('GET', '/api/public/v2/prompts?name=p-race');
    expect(listed.body.data[0].versions).toHaveLength(20);
    expect((await call('GET', `${at('p-race')}?label=latest`)).body.version).toBe(20);
  });
});

describe('GET /api/public/v2/prompts/{name}', () => {
  beforeAll(async () => {
    await create({ name: 'team/app/summary', prompt: 'one', labels: ['production'] });
    await create({ name: 'team/app/summary', prompt: 'two', labels: ['staging'] });
  });

  it('serves production by default, then a label or a version, with isActive and resolutionGraph', async () => {
    const byDefault = await call('GET', at('team/app/summary'));
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toMatchObject({ version: 1, prompt: 'one', isActive: true, resolutionGraph: null });
    expect((await call('GET', `${at('team/app/summary')}?label=staging`)).body).toMatchObject({ version: 2, isActive: false });
    expect((await call('GET', `${at('team/app/summary')}?version=2`)).body.labels).toEqual(['staging', 'latest']);
    // version=0 is falsy on the server: production is served.
    expect((await call('GET', `${at('team/app/summary')}?version=0`, undefined, { unchecked: true })).body.version).toBe(1);
  });

  it('answers 404 with the documented messages, and 400 for version with label', async () => {
    expect(await call('GET', at('p-nothing'))).toEqual({ status: 404, body: { message: "Prompt not found: 'p-nothing' with label 'production'", error: 'LangfuseNotFoundError' } });
    expect((await call('GET', `${at('team/app/summary')}?version=9`)).body.message).toBe("Prompt not found: 'team/app/summary' with version 9");
    expect((await call('GET', `${at('team/app/summary')}?label=qa`)).body.message).toBe("Prompt not found: 'team/app/summary' with label 'qa'");
    expect(await call('GET', `${at('team/app/summary')}?version=1&label=staging`, undefined, { unchecked: true })).toEqual({
      status: 400,
      body: { message: 'Cannot specify both version and label', error: 'InvalidRequestError' },
    });
    expect((await call('GET', `${at('team/app/summary')}?version=x`, undefined, { unchecked: true })).body.message).toBe('Invalid request data');
  });

  it('takes names with special characters when URL-encoded', async () => {
    const name = 'promptName?!+ =@#;';
    await create({ name, prompt: 'odd', labels: ['production'] });
    expect((await call('GET', at(name))).body.name).toBe(name);
  });

  it('answers auth failures with the prompts error shape', async () => {
    expect(await call('GET', at('team/app/summary'), undefined, { auth: null })).toEqual({ status: 401, body: { message: 'No authorization header', error: 'UnauthorizedError' } });
    expect((await call('GET', at('team/app/summary'), undefined, { auth: `Bearer ${server.keys.publicKey}` })).body).toEqual({
      message: 'Access denied - need to use basic auth with secret key to GET prompts',
      error: 'ForbiddenError',
    });
  });
});

describe('GET /api/public/v2/prompts', () => {
  let other: RunningServer;
  beforeAll(async () => {
    other = await startServer({ port: 0, ephemeral: true });
    await create({ name: 'b', prompt: 'b1', labels: ['production'], tags: ['t'] }, { target: other });
    await create({ name: 'b', prompt: 'b2', labels: ['dev'], config: { v: 2 } }, { target: other });
    await create({ name: 'b', prompt: 'b3' }, { target: other });
    await create({ name: 'a', type: 'chat', prompt: [{ role: 'user', content: 'x' }], labels: ['dev'] }, { target: other });
    for (let i = 0; i < 11; i++) await create({ name: `c${String(i).padStart(2, '0')}`, prompt: 'x' }, { target: other });
  });
  afterAll(() => other.close());

  it('sorts by name, aggregates versions and labels, and pages by 10 with meta and pagination', async () => {
    const first = await call('GET', '/api/public/v2/prompts', undefined, { target: other });
    expect(first.body.meta).toEqual({ page: 1, limit: 10, totalItems: 13, totalPages: 2 });
    expect(first.body.pagination).toEqual(first.body.meta);
    expect(first.body.data.map((item: { name: string }) => item.name).slice(0, 3)).toEqual(['a', 'b', 'c00']);
    expect(first.body.data[1]).toMatchObject({ name: 'b', versions: [1, 2, 3], labels: ['dev', 'latest', 'production'], tags: ['t'], type: 'text', lastConfig: {} });
    const second = await call('GET', '/api/public/v2/prompts?page=2&limit=10', undefined, { target: other });
    expect(second.body.data).toHaveLength(3);
  });

  it('filters each version before grouping', async () => {
    const dev = await call('GET', '/api/public/v2/prompts?label=dev', undefined, { target: other });
    expect(dev.body.data.map((item: { name: string; versions: number[]; labels: string[] }) => [item.name, item.versions, item.labels])).toEqual([
      ['a', [1], ['dev', 'latest']],
      ['b', [2], ['dev']],
    ]);
    expect(dev.body.data[1].lastConfig).toEqual({ v: 2 });
    expect((await call('GET', '/api/public/v2/prompts?tag=t', undefined, { target: other })).body.data.map((item: { name: string }) => item.name)).toEqual(['b']);
    expect((await call('GET', '/api/public/v2/prompts?name=zzz', undefined, { target: other })).body).toMatchObject({ data: [], meta: { totalItems: 0, totalPages: 0 } });
  });

  it('refuses a limit over 100 and a date without an offset', async () => {
    expect((await call('GET', '/api/public/v2/prompts?limit=101', undefined, { target: other, unchecked: true })).status).toBe(400);
    expect((await call('GET', '/api/public/v2/prompts?fromUpdatedAt=2026-01-01T00:00:00', undefined, { target: other, unchecked: true })).status).toBe(400);
    expect((await call('GET', '/api/public/v2/prompts?fromUpdatedAt=2000-01-01T00:00:00Z', undefined, { target: other })).body.meta.totalItems).toBe(13);
  });
});

describe('GET /api/public/v2/prompts?fromUpdatedAt&toUpdatedAt', () => {
  let clocked: RunningServer;
  let time = '2026-03-01T10:00:00.000Z';
  const list = async (query: string) => {
    const answer = await call('GET', `/api/public/v2/prompts?${query}`, undefined, { target: clocked });
    return answer.body.data.map((item: { name: string; versions: number[] }) => `${item.name}:${item.versions.join(',')}`);
  };
  beforeAll(async () => {
    clocked = await startServer({ port: 0, ephemeral: true, now: () => new Date(time) });
    await create({ name: 'early', prompt: 'v1' }, { target: clocked });
    time = '2026-03-01T12:00:00.000Z';
    await create({ name: 'late', prompt: 'v1' }, { target: clocked });
    time = '2026-03-01T14:00:00.000Z';
    // Moves "latest" off version 1, which updates it too.
    await create({ name: 'late', prompt: 'v2' }, { target: clocked });
  });
  afterAll(() => clocked.close());

  it('keeps the versions updated in [from, to), offsets included, then groups them', async () => {
    expect(await list('fromUpdatedAt=2026-03-01T12:00:00Z')).toEqual(['late:1,2']);
    expect(await list('toUpdatedAt=2026-03-01T12:00:00Z')).toEqual(['early:1']);
    expect(await list(`fromUpdatedAt=${encodeURIComponent('2026-03-01T11:00:00-01:00')}&toUpdatedAt=2026-03-01T14:00:00.000Z`)).toEqual([]);
    expect(await list(`fromUpdatedAt=${encodeURIComponent('2026-03-01T10:00:00+01:00')}&toUpdatedAt=2026-03-01T14:00:00.001Z`)).toEqual(['early:1', 'late:1,2']);
    // From after to is not an error on the server: nothing matches.
    expect(await list('fromUpdatedAt=2026-03-02T00:00:00Z&toUpdatedAt=2026-03-01T00:00:00Z')).toEqual([]);
  });

  it('answers a datetime without Z or an offset with the server\'s zod issue', async () => {
    for (const bad of ['2026-03-01T12:00:00', '2026-03-01', '2026-02-30T00:00:00Z', '2026-03-01T12:00:00+0100']) {
      const answer = await call('GET', `/api/public/v2/prompts?toUpdatedAt=${encodeURIComponent(bad)}`, undefined, { target: clocked, unchecked: true });
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toEqual({
        message: 'Invalid request data',
        error: [{ origin: 'string', code: 'invalid_format', format: 'datetime', pattern: expect.any(String), path: ['toUpdatedAt'], message: 'Invalid ISO datetime' }],
      });
    }
  });
});

describe('PATCH /api/public/v2/prompts/{name}/versions/{version}', () => {
  beforeAll(async () => {
    await create({ name: 'p-patch', prompt: 'v1', labels: ['production'] });
    await create({ name: 'p-patch', prompt: 'v2' });
  });

  it('adds labels and takes them from the other versions, never removing any', async () => {
    const moved = await call('PATCH', `${at('p-patch')}/versions/2`, { newLabels: ['production', 'qa'] });
    expect(moved.status).toBe(200);
    // The server keeps new labels first: new Set([...newLabels, ...labels]).
    expect(moved.body).toMatchObject({ version: 2, labels: ['production', 'qa', 'latest'], isActive: null });
    expect((await call('GET', `${at('p-patch')}?version=1`)).body.labels).toEqual([]);
    const again = await call('PATCH', `${at('p-patch')}/versions/2`, { newLabels: [] });
    expect(again.body.labels).toEqual(['production', 'qa', 'latest']);
    const reordered = await call('PATCH', `${at('p-patch')}/versions/2`, { newLabels: ['qa', 'qa'] });
    expect(reordered.body.labels).toEqual(['qa', 'production', 'latest']);
  });

  it('refuses latest, unknown versions and bad bodies', async () => {
    expect(await call('PATCH', `${at('p-patch')}/versions/1`, { newLabels: ['latest'] }, { unchecked: true })).toEqual({
      status: 400,
      body: {
        message: 'Invalid request data',
        error: [{ code: 'custom', path: ['newLabels'], message: "Label 'latest' is always assigned to the latest prompt version" }],
      },
    });
    expect(await call('PATCH', `${at('p-patch')}/versions/7`, { newLabels: ['x'] })).toEqual({
      status: 404,
      body: { message: "Prompt 'p-patch' version 7 not found in project", error: 'LangfuseNotFoundError' },
    });
    expect((await call('PATCH', `${at('p-patch')}/versions/1`, { labels: ['x'] }, { unchecked: true })).body.message).toBe('Invalid request data');
    expect((await call('PATCH', `${at('p-patch')}/versions/one`, { newLabels: [] }, { unchecked: true })).status).toBe(400);
  });

  it('answers auth failures without an error class, as project routes do', async () => {
    expect(await call('PATCH', `${at('p-patch')}/versions/1`, { newLabels: [] }, { auth: null })).toEqual({ status: 401, body: { message: 'No authorization header' } });
  });
});

describe('DELETE /api/public/v2/prompts/{name}', () => {
  it('deletes one version, the versions with a label, or all, moving latest to the highest remaining', async () => {
    for (const labels of [['production'], ['staging'], [], []]) await create({ name: 'p-del', prompt: 'x', labels });
    expect(await call('DELETE', `${at('p-del')}?version=4`)).toEqual({ status: 204, body: undefined });
    expect((await call('GET', `${at('p-del')}?version=3`)).body.labels).toEqual(['latest']);
    expect((await call('DELETE', `${at('p-del')}?label=staging`)).status).toBe(204);
    expect((await call('GET', '/api/public/v2/prompts?name=p-del')).body.data[0].versions).toEqual([1, 3]);
    expect((await call('DELETE', `${at('p-del')}?version=3`)).status).toBe(204);
    expect((await call('GET', `${at('p-del')}?version=1`)).body.labels).toEqual(['production', 'latest']);
    expect(await call('DELETE', `${at('p-del')}?version=1&label=production`, undefined, { unchecked: true })).toEqual({
      status: 400,
      body: { message: 'Cannot specify both version and label', error: 'InvalidRequestError' },
    });
    expect((await call('DELETE', at('p-del'))).status).toBe(204);
    expect(await call('DELETE', at('p-del'))).toEqual({ status: 404, body: { message: 'Prompt not found', error: 'LangfuseNotFoundError' } });
  });
});

describe('prompt storage', () => {
  it('keeps prompts across a restart', async () => {
    const dir = tempDir();
    const first = await startServer({ port: 0, dataDir: dir });
    await create({ name: 'kept', prompt: 'x' }, { target: first });
    await first.close();
    const second = await startServer({ port: 0, dataDir: dir });
    expect((await call('GET', `${at('kept')}?label=latest`, undefined, { target: second })).body.prompt).toBe('x');
    expect((await create({ name: 'kept', prompt: 'y' }, { target: second })).body.version).toBe(2);
    await second.close();
  });
});
