// Moving a label from the UI: the guard of `labels set --expect-current`, checked and moved in
// one transaction, from the target and the label's holder alone; the diff of two versions; a
// prompt's versions a page at a time, reading that page's versions only.
import { afterEach, describe, expect, it } from 'vitest';
import { planSetLabel } from '../../../../src/core/prompts/label-plan.js';
import { NotFoundError, PreconditionError, UsageError } from '../../../../src/errors.js';
import type { ServerReply } from '../../../../src/server/http/router.js';
import { ROUTES } from '../../../../src/server/index.js';
import { Store } from '../../../../src/server/store/index.js';
import { type Call, type InternalApi, internalApi } from '../../../../src/server/ui/internal-api.js';
import { moveLabel, PAGE_LIMIT, promptDiff, promptVersions } from '../../../../src/server/ui/prompts.js';

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

/** The calls `ui`'s transactions make from now on, as `METHOD path?query`. */
function recordCalls(ui: InternalApi): string[] {
  const paths: string[] = [];
  const record =
    (call: Call): Call =>
    (method, path, query, body) => (paths.push(`${method} ${path}?${query?.toString() ?? ''}`), call(method, path, query, body));
  const reading = ui.reading.bind(ui);
  const atomically = ui.atomically.bind(ui);
  ui.reading = (fn) => reading((call, tx) => fn(record(call), tx));
  ui.atomically = (fn) => atomically((call) => fn(record(call)));
  return paths;
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

describe('moveLabel at scale', () => {
  const at = (query: Record<string, string>) => `GET /api/public/v2/prompts/team%2Fagent?${new URLSearchParams(query).toString()}`;

  it('reads the target and the version the label is on, not every version of the prompt', () => {
    const ui = withPrompt();
    const paths = recordCalls(ui);
    expect(moveLabel(ui, { name: 'team/agent', label: 'production', version: 3, expectCurrent: 1 }).status).toBe(200);
    expect(paths).toEqual([at({ version: '3', resolve: 'false' }), at({ label: 'production', resolve: 'false' }), 'PATCH /api/public/v2/prompts/team%2Fagent/versions/3?']);
    paths.length = 0;
    // An unknown version: the newest tells the highest version, as the refusal says it.
    expect(moveLabel(ui, { name: 'team/agent', label: 'production', version: 9, expectCurrent: 3 })).toEqual({ status: 404, body: { message: 'Version 9 does not exist; the highest version is 3.' } });
    expect(paths).toEqual([at({ version: '9', resolve: 'false' }), at({ label: 'latest', resolve: 'false' }), at({ label: 'production', resolve: 'false' })]);
  });

  it('answers as the guard does with every version in hand, whatever it is asked', () => {
    const ui = withPrompt();
    // A gap: the highest version is not the number of versions.
    expect(ui.call('POST', '/api/public/v2/prompts', undefined, { name: 'team/agent', type: 'text', prompt: 'four', labels: [] }).status).toBe(201);
    expect(ui.call('POST', '/api/public/v2/prompts', undefined, { name: 'team/agent', type: 'text', prompt: 'five', labels: ['canary'] }).status).toBe(201);
    expect(ui.call('DELETE', '/api/public/v2/prompts/team%2Fagent', new URLSearchParams({ version: '3' })).status).toBe(204);
    let moved = 0;
    for (const name of ['team/agent', 'other'])
      for (const label of ['production', 'staging', 'canary', 'new', 'latest', '', 'Not a label', 'x'.repeat(40)])
        for (const version of [0, 1, 2, 3, 4, 5, 6, -1])
          for (const expectCurrent of [null, 1, 2, 4, 5]) {
            const input = { name, label, version, expectCurrent };
            const expected = withEveryVersion(ui, input);
            expect(moveLabel(ui, input), JSON.stringify(input)).toEqual(expected);
            if (expected.status === 200) moved++;
          }
    // Some moves went ahead, so later cases met labels where earlier ones put them.
    expect(moved).toBeGreaterThan(10);
  });
});

/** The guard's answer from every version of the prompt read whole, as the UI first wrote it. */
function withEveryVersion(ui: InternalApi, input: { name: string; label: string; version: number; expectCurrent: number | null }): ServerReply {
  const list = ui.call('GET', '/api/public/v2/prompts', new URLSearchParams({ name: input.name, limit: '100' }));
  const meta = (list.body as { data: Array<{ name: string; versions: number[] }> }).data.find((p) => p.name === input.name);
  if (!meta) return { status: 404, body: { message: `No prompt named ${JSON.stringify(input.name)}.` } };
  const path = `/api/public/v2/prompts/${encodeURIComponent(input.name)}`;
  const versions = meta.versions.map((version) => ui.call('GET', path, new URLSearchParams({ version: String(version), resolve: 'false' })).body as { version: number; labels: string[] });
  try {
    const plan = planSetLabel(versions, input.label, input.version, { expectCurrent: input.expectCurrent });
    return { status: 200, body: { name: input.name, label: input.label, previousVersion: plan.previousVersion, version: plan.targetVersion, noop: plan.noop } };
  } catch (error) {
    const status = error instanceof PreconditionError ? 409 : error instanceof NotFoundError ? 404 : error instanceof UsageError ? 400 : 500;
    return { status, body: { message: (error as Error).message } };
  }
}

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
    const paths = recordCalls(ui);
    expect(promptDiff(ui, new URLSearchParams({ name: 'team/agent', from: '1', to: '3' })).status).toBe(200);
    expect(paths).toEqual(['GET /api/public/v2/prompts/team%2Fagent?version=1&resolve=false', 'GET /api/public/v2/prompts/team%2Fagent?version=3&resolve=false']);
  });
});

describe('promptVersions', () => {
  interface Page {
    name: string;
    versions: Array<{ version: number; labels: string[]; prompt: string }>;
    nextCursor: string | null;
    total?: number;
    labels?: Array<{ label: string; version: number }>;
  }

  function withVersions(count: number, prompt: (version: number) => string = (v) => `text ${v}`) {
    const ui = withPrompt();
    for (let v = 1; v <= count; v++) {
      const labels = v === 2 ? ['production'] : v === count - 3 ? ['staging'] : [];
      expect(ui.call('POST', '/api/public/v2/prompts', undefined, { name: 'many', type: 'text', prompt: prompt(v), labels }).status).toBe(201);
    }
    return ui;
  }

  /** Every page of `name` from the first, by the cursor each gives. */
  function pages(ui: InternalApi, query: Record<string, string>): Page[] {
    const all: Page[] = [];
    let cursor: string | null = null;
    do {
      const reply = promptVersions(ui, new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) }));
      expect(reply.status).toBe(200);
      all.push(reply.body as Page);
      cursor = (reply.body as Page).nextCursor;
    } while (cursor);
    return all;
  }

  it('gives the versions a page at a time, newest first, with the count and every label with the first', () => {
    const count = PAGE_LIMIT + 7;
    const ui = withVersions(count);
    const [first, ...rest] = pages(ui, { name: 'many' });
    expect(first!.versions.map((v) => v.version)).toEqual(Array.from({ length: PAGE_LIMIT }, (_, i) => count - i));
    expect(first!.versions[0]).toMatchObject({ name: 'many', version: count, labels: ['latest'], prompt: `text ${count}` });
    expect(first!.total).toBe(count);
    // Every label with its version, though versions 2 and count - 3 are not all on this page.
    expect(first!.labels).toEqual([
      { label: 'latest', version: count },
      { label: 'production', version: 2 },
      { label: 'staging', version: count - 3 },
    ]);
    expect(rest.map((page) => page.versions.map((v) => v.version))).toEqual([[7, 6, 5, 4, 3, 2, 1]]);
    expect(rest[0]!.versions.find((v) => v.version === 2)!.labels).toEqual(['production']);
    expect(rest[0]).not.toHaveProperty('total');
    const small = pages(ui, { name: 'many', limit: '20' });
    expect(small.map((page) => page.versions.length)).toEqual([20, 20, 17]);
    expect(small.flatMap((page) => page.versions.map((v) => v.version))).toEqual(Array.from({ length: count }, (_, i) => count - i));
  });

  it("reads its page's versions, not every version of the prompt", () => {
    const ui = withVersions(30);
    const paths = recordCalls(ui);
    expect(promptVersions(ui, new URLSearchParams({ name: 'many', limit: '3' })).status).toBe(200);
    expect(paths).toEqual([30, 29, 28].map((v) => `GET /api/public/v2/prompts/many?version=${v}&resolve=false`));
  });

  it('gives fewer versions on a page when their stored text is large', () => {
    const ui = withVersions(6, (v) => `${v}`.padEnd(1_500_000, '.'));
    const all = pages(ui, { name: 'many' });
    expect(all.length).toBeGreaterThan(1);
    for (const page of all) expect(page.versions.length).toBeGreaterThan(0);
    expect(all.flatMap((page) => page.versions.map((v) => v.version))).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('refuses a cursor it did not give and a prompt that does not exist', () => {
    const ui = withVersions(3);
    expect(promptVersions(ui, new URLSearchParams({ name: 'many', cursor: 'nonsense' })).status).toBe(400);
    expect(promptVersions(ui, new URLSearchParams({ name: 'many', cursor: Buffer.from('{"before":0}').toString('base64url') })).status).toBe(400);
    expect(promptVersions(ui, new URLSearchParams({ name: 'other' }))).toEqual({ status: 404, body: { message: 'No prompt named "other".' } });
    const cursor = (promptVersions(ui, new URLSearchParams({ name: 'many', limit: '1' })).body as Page).nextCursor!;
    expect(promptVersions(ui, new URLSearchParams({ name: 'other', cursor })).status).toBe(404);
    // Below the lowest version: an empty last page.
    const below = Buffer.from('{"before":1}').toString('base64url');
    expect(promptVersions(ui, new URLSearchParams({ name: 'many', cursor: below }))).toEqual({ status: 200, body: { name: 'many', versions: [], nextCursor: null } });
  });
});
