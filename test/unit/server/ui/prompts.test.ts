// Moving a label from the UI: the guard of `labels set --expect-current`, checked and moved in
// one transaction; the diff of two versions; a prompt's versions.
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../../src/server/index.js';
import { Store } from '../../../../src/server/store/index.js';
import { internalApi } from '../../../../src/server/ui/internal-api.js';
import { moveLabel, promptDiff, promptVersions } from '../../../../src/server/ui/prompts.js';

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function withPrompt() {
  const now = () => new Date('2026-11-27T12:00:00.000Z');
  const { store } = Store.open({ now });
  opened.push(store);
  const ui = internalApi(ROUTES, { store, now, apiVersion: '4.35.0', writeMode: 'events_only' });
  for (const [prompt, labels] of [['one', ['production']], ['two', ['staging']], ['three', []]] as const) {
    expect(ui.call('POST', '/api/public/v2/prompts', undefined, { name: 'team/agent', type: 'text', prompt, labels }).status).toBe(201);
  }
  return ui;
}

const labelsOf = (ui: ReturnType<typeof withPrompt>) =>
  Object.fromEntries((promptVersions(ui, new URLSearchParams({ name: 'team/agent' })).body as { versions: Array<{ version: number; labels: string[] }> }).versions.map((v) => [v.version, v.labels.filter((l) => l !== 'latest').sort()]));

describe('moveLabel', () => {
  it('moves a label that is where the page saw it', () => {
    const ui = withPrompt();
    expect(moveLabel(ui, { name: 'team/agent', label: 'production', version: 2, expectCurrent: 1 })).toEqual({ status: 200, body: { name: 'team/agent', label: 'production', previousVersion: 1, version: 2, noop: false } });
    expect(labelsOf(ui)).toEqual({ 1: [], 2: ['production', 'staging'], 3: [] });
    expect(moveLabel(ui, { name: 'team/agent', label: 'canary', version: 3, expectCurrent: null }).status).toBe(200);
    expect(moveLabel(ui, { name: 'team/agent', label: 'canary', version: 3, expectCurrent: 3 }).body).toMatchObject({ noop: true });
  });

  it('refuses, and changes nothing, when the label moved since', () => {
    const ui = withPrompt();
    const before = labelsOf(ui);
    const refused = moveLabel(ui, { name: 'team/agent', label: 'production', version: 3, expectCurrent: 2 });
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toContain('production');
    expect(moveLabel(ui, { name: 'team/agent', label: 'staging', version: 1, expectCurrent: null }).status).toBe(409);
    expect(labelsOf(ui)).toEqual(before);
  });

  it('refuses latest, unknown versions and prompts, and bad requests', () => {
    const ui = withPrompt();
    expect(moveLabel(ui, { name: 'team/agent', label: 'latest', version: 1, expectCurrent: 3 }).status).toBe(400);
    expect(moveLabel(ui, { name: 'team/agent', label: 'production', version: 9, expectCurrent: 1 }).status).toBe(404);
    expect(moveLabel(ui, { name: 'nope', label: 'production', version: 1, expectCurrent: null }).status).toBe(404);
    expect(moveLabel(ui, { name: 'team/agent', label: 'production', version: 1 }).status).toBe(400);
    expect(moveLabel(ui, { name: 'team/agent', label: 'production', version: '1', expectCurrent: null }).status).toBe(400);
  });
});

describe('promptDiff', () => {
  it('diffs two versions as prompts diff does', () => {
    const ui = withPrompt();
    const diff = promptDiff(ui, new URLSearchParams({ name: 'team/agent', from: '1', to: '2' }));
    expect(diff.status).toBe(200);
    expect((diff.body as { content: string }).content).toContain('-one\n+two\n');
    expect(promptDiff(ui, new URLSearchParams({ name: 'team/agent', from: '1', to: '7' }))).toEqual({ status: 404, body: { message: 'No version 7 of "team/agent".' } });
    // Version 0 is no version (the API would take it as none given and answer production's).
    expect(promptDiff(ui, new URLSearchParams({ name: 'team/agent', from: '0', to: '2' }))).toEqual({ status: 404, body: { message: 'No version 0 of "team/agent".' } });
    expect(promptDiff(ui, new URLSearchParams({ name: 'other', from: '1', to: '2' }))).toEqual({ status: 404, body: { message: 'No prompt named "other".' } });
  });

  it('reads the two versions, not every version of the prompt', () => {
    const ui = withPrompt();
    const paths: string[] = [];
    const reading = ui.reading.bind(ui);
    ui.reading = (fn) => reading((call) => fn((method, path, query, body) => (paths.push(`${method} ${path}?${query?.toString() ?? ''}`), call(method, path, query, body))));
    expect(promptDiff(ui, new URLSearchParams({ name: 'team/agent', from: '1', to: '3' })).status).toBe(200);
    expect(paths).toEqual(['GET /api/public/v2/prompts/team%2Fagent?version=1&resolve=false', 'GET /api/public/v2/prompts/team%2Fagent?version=3&resolve=false']);
  });
});
