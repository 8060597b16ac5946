// Prompt composition in the local server (SEMANTICS.md e, "Composability"; API.md 4.2, 4.4, 4.6):
// references checked on create, resolved on GET against the labels as they are then, and versions
// other prompts reference kept from deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { tempDir } from '../../../helpers/cli.js';
import { apiCaller } from '../../../helpers/server-api.js';

let server: RunningServer;
const call = apiCaller(() => server);
const at = (name: string) => `/api/public/v2/prompts/${encodeURIComponent(name)}`;
const ref = (inner: string) => `@@@langfusePrompt:${inner}@@@`;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
});
afterAll(() => server.close());

async function create(body: Record<string, unknown>, target?: RunningServer) {
  const answer = await call('POST', '/api/public/v2/prompts', body, { target });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; version: number; prompt: unknown; labels: string[] };
}

const refused = (body: Record<string, unknown>) => call('POST', '/api/public/v2/prompts', body, { unchecked: true });
const get = async (name: string, query = '', target?: RunningServer) => call('GET', `${at(name)}${query}`, undefined, { target });

describe('creating a prompt with references', () => {
  it('refuses a reference to a prompt, version or label that does not exist, and creates nothing', async () => {
    await create({ name: 'c/exists', prompt: 'x', labels: ['production'] });
    for (const [inner, described] of [
      ['name=c/ghost|version=1', 'c/ghost - version 1'],
      ['name=c/exists|version=2', 'c/exists - version 2'],
      ['name=c/exists|label=staging', 'c/exists - label staging'],
    ]) {
      expect(await refused({ name: 'c/parent', prompt: `See ${ref(inner!)}` })).toEqual({
        status: 400,
        body: { message: `Prompt dependency not found: ${described}`, error: 'InvalidRequestError' },
      });
    }
    expect((await call('GET', '/api/public/v2/prompts?name=c/parent')).body.data).toEqual([]);
  });

  it('refuses a reference to a chat prompt', async () => {
    await create({ name: 'c/chat', type: 'chat', prompt: [{ role: 'user', content: 'hi' }], labels: ['production'] });
    expect(await refused({ name: 'c/parent', prompt: ref('name=c/chat|label=production') })).toEqual({
      status: 400,
      body: { message: 'Prompt dependency is not a text prompt: c/chat - label production', error: 'InvalidRequestError' },
    });
  });

  it('answers 201 with the raw row: tags intact, no resolutionGraph', async () => {
    await create({ name: 'c/greeting', prompt: 'Hello' });
    const content = `${ref('name=c/greeting|version=1')}, world`;
    const created = await create({ name: 'c/raw', prompt: content });
    expect(created.prompt).toBe(content);
    expect(created).not.toHaveProperty('resolutionGraph');
    const listed = await call('GET', '/api/public/v2/prompts?name=c/raw');
    expect(listed.body.data[0]).not.toHaveProperty('resolutionGraph');
  });

  it('ignores tags that are not references, and leaves them in the content', async () => {
    const content = `${ref('invalid')} ${ref('name=missing-type')} ${ref('label=x|name=a')} ${ref('name=a|version=1|label=x')}`;
    await create({ name: 'c/not-refs', prompt: content, labels: ['production'] });
    expect((await get('c/not-refs')).body).toMatchObject({ prompt: content, resolutionGraph: null });
  });

  it('refuses a reference to another version of itself, and a cycle through another prompt', async () => {
    await create({ name: 'c/self', prompt: 'first' });
    const self = await refused({ name: 'c/self', prompt: `again ${ref('name=c/self|version=1')}` });
    expect(self).toEqual({ status: 400, body: { message: "Circular dependency detected involving prompt 'c/self' version 1", error: 'InvalidRequestError' } });

    await create({ name: 'c/circular-a', prompt: 'A', labels: ['production'] });
    await create({ name: 'c/circular-b', prompt: `B ${ref('name=c/circular-a|label=production')}`, labels: ['production'] });
    const cycle = await refused({ name: 'c/circular-a', prompt: `A ${ref('name=c/circular-b|label=production')}`, labels: ['production'] });
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toBe("Circular dependency detected involving prompt 'c/circular-a' version 1");
    expect((await call('GET', '/api/public/v2/prompts?name=c/circular-a')).body.data[0].versions).toEqual([1]);
  });

  it('allows five prompts in a chain and refuses a sixth', async () => {
    await create({ name: 'c/depth-5', prompt: 'deepest', labels: ['production'] });
    for (let i = 4; i >= 1; i--) await create({ name: `c/depth-${i}`, prompt: `${i}(${ref(`name=c/depth-${i + 1}|label=production`)})`, labels: ['production'] });
    expect((await get('c/depth-1')).body.prompt).toBe('1(2(3(4(deepest))))');
    expect(await refused({ name: 'c/depth-0', prompt: ref('name=c/depth-1|label=production') })).toEqual({
      status: 400,
      body: { message: 'Maximum nesting depth exceeded (5)', error: 'InvalidRequestError' },
    });
  });
});

describe('GET with references', () => {
  let child1: string;
  let child2: string;
  beforeAll(async () => {
    child1 = (await create({ name: 'g/child', prompt: 'child one', labels: ['production'] })).id;
    child2 = (await create({ name: 'g/child', prompt: 'child two', labels: ['staging'] })).id;
  });

  it('resolves by version and by label, with the graph of the versions used', async () => {
    const parent = await create({ name: 'g/parent', prompt: `v1: ${ref('name=g/child|version=1')}; staging: ${ref('name=g/child|label=staging')}`, labels: ['production'] });
    const answer = await get('g/parent');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: parent.id, version: 1, prompt: 'v1: child one; staging: child two', isActive: true });
    expect(answer.body.resolutionGraph).toEqual({
      root: { name: 'g/parent', version: 1, id: parent.id },
      dependencies: { [parent.id]: [{ id: child1, name: 'g/child', version: 1 }, { id: child2, name: 'g/child', version: 2 }] },
    });
  });

  it('follows a label to the version that holds it now', async () => {
    await create({ name: 'g/follows', prompt: `Uses ${ref('name=g/child|label=production')}`, labels: ['production'] });
    expect((await get('g/follows')).body.prompt).toBe('Uses child one');
    await call('PATCH', `${at('g/child')}/versions/2`, { newLabels: ['production'] });
    const moved = await get('g/follows');
    expect(moved.body.prompt).toBe('Uses child two');
    expect(Object.values(moved.body.resolutionGraph.dependencies)).toEqual([[{ id: child2, name: 'g/child', version: 2 }]]);
    const third = await create({ name: 'g/child', prompt: 'child three', labels: ['production'] });
    expect((await get('g/follows')).body.prompt).toBe('Uses child three');
    expect(third.version).toBe(3);
  });

  it('serves the stored content with tags intact and no graph with resolve=false', async () => {
    const content = `Raw ${ref('name=g/child|version=1')}`;
    await create({ name: 'g/raw', prompt: content, labels: ['production'] });
    expect((await get('g/raw', '?resolve=false')).body).toMatchObject({ prompt: content, resolutionGraph: null, isActive: true });
    expect((await get('g/raw', '?resolve=true')).body.prompt).toBe('Raw child one');
    expect((await call('GET', `${at('g/raw')}?resolve=no`, undefined, { unchecked: true })).status).toBe(400);
  });

  it('resolves nested references into a chat prompt, escaping quotes and line breaks', async () => {
    const inner = await create({ name: 'g/quote', prompt: 'He said "stop".\nThen: C:\\temp $& done', labels: ['production'] });
    const middle = await create({ name: 'g/middle', prompt: `[${ref('name=g/quote|label=production')}]`, labels: ['production'] });
    const chat = await create({
      name: 'g/agent',
      type: 'chat',
      prompt: [{ role: 'system', content: `Rules ${ref('name=g/middle|label=production')} end` }, { type: 'placeholder', name: 'history' }],
      labels: ['production'],
    });
    const answer = await get('g/agent');
    expect(answer.body.prompt).toEqual([{ role: 'system', content: 'Rules [He said "stop".\nThen: C:\\temp $& done] end' }, { type: 'placeholder', name: 'history' }]);
    expect(answer.body.resolutionGraph).toEqual({
      root: { name: 'g/agent', version: 1, id: chat.id },
      dependencies: {
        [chat.id]: [{ id: middle.id, name: 'g/middle', version: 1 }],
        [middle.id]: [{ id: inner.id, name: 'g/quote', version: 1 }],
      },
    });
  });

  it('answers 409 when a stored reference no longer resolves: labels moved and the chain grew too deep', async () => {
    await create({ name: 'g/hop-4', prompt: 'end' });
    for (let i = 3; i >= 1; i--) await create({ name: `g/hop-${i}`, prompt: `(${ref(`name=g/hop-${i + 1}|version=1`)})` });
    await create({ name: 'g/link', prompt: 'short', labels: ['x'] });
    await create({ name: 'g/link', prompt: `long ${ref('name=g/hop-1|version=1')}` });
    await create({ name: 'g/top', prompt: `top ${ref('name=g/link|label=x')}`, labels: ['production'] });
    expect((await get('g/top')).body.prompt).toBe('top short');

    await call('PATCH', `${at('g/link')}/versions/2`, { newLabels: ['x'] });
    expect(await call('GET', at('g/top'))).toEqual({ status: 409, body: { message: 'Maximum nesting depth exceeded (5)', error: 'LangfuseConflictError' } });
    expect((await get('g/top', '?resolve=false')).status).toBe(200);
    expect((await get('g/link', '?label=x')).body.prompt).toBe('long (((end)))');
  });
});

describe('deleting a referenced prompt', () => {
  it('refuses to delete a version referenced by number, or a label no remaining version would hold', async () => {
    await create({ name: 'd/child', prompt: 'one', labels: ['production'] });
    await create({ name: 'd/child', prompt: 'two', labels: ['staging'] });
    await create({ name: 'd/child', prompt: 'three' });
    await create({ name: 'd/parent', prompt: `${ref('name=d/child|version=1')} ${ref('name=d/child|label=staging')}` });

    const message = (lines: string) => `Other prompts are depending on prompt versions you are trying to delete:\n\n${lines}\n\nPlease delete the dependent prompts first.`;
    expect(await call('DELETE', `${at('d/child')}?version=1`)).toEqual({ status: 400, body: { message: message('d/parent v1 depends on d/child v1'), error: 'InvalidRequestError' } });
    expect((await call('DELETE', `${at('d/child')}?label=staging`)).body.message).toBe(message('d/parent v1 depends on d/child staging'));
    expect((await call('DELETE', at('d/child'))).body.message).toBe(message('d/parent v1 depends on d/child v1\nd/parent v1 depends on d/child staging'));
    expect((await call('GET', '/api/public/v2/prompts?name=d/child')).body.data[0].versions).toEqual([1, 2, 3]);

    // Version 3 is referenced neither by number nor by a label only it holds.
    expect((await call('DELETE', `${at('d/child')}?version=3`)).status).toBe(204);
    // Once the label is on a version that stays, the version it left can go.
    await call('PATCH', `${at('d/child')}/versions/1`, { newLabels: ['staging'] });
    expect((await call('DELETE', `${at('d/child')}?version=2`)).status).toBe(204);
    expect((await get('d/parent', '?label=latest')).body.prompt).toBe('one one');
  });

  it('allows the delete once the referencing prompt is gone', async () => {
    await create({ name: 'd/leaf', prompt: 'leaf' });
    await create({ name: 'd/user', prompt: ref('name=d/leaf|label=latest') });
    expect((await call('DELETE', at('d/leaf'))).status).toBe(400);
    expect((await call('DELETE', at('d/user'))).status).toBe(204);
    expect((await call('DELETE', at('d/leaf'))).status).toBe(204);
  });
});

describe('references in the data directory', () => {
  it('keeps references across a restart', async () => {
    const dir = tempDir();
    const first = await startServer({ port: 0, dataDir: dir });
    await create({ name: 'child', prompt: 'kept child', labels: ['production'] }, first);
    const parent = await create({ name: 'parent', prompt: `parent of ${ref('name=child|label=production')}`, labels: ['production'] }, first);
    await first.close();

    const second = await startServer({ port: 0, dataDir: dir });
    const answer = await get('parent', '', second);
    expect(answer.body.prompt).toBe('parent of kept child');
    expect(answer.body.resolutionGraph.root).toEqual({ name: 'parent', version: 1, id: parent.id });
    expect((await call('DELETE', at('child'), undefined, { target: second })).status).toBe(400);
    await second.close();

  });
});
