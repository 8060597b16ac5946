import { describe, expect, it } from 'vitest';
import type { PromptFileData } from '../../../../src/core/prompts/file-format.js';
import { type LocalPromptFile, planPush, type ServerPromptState, type ServerVersion } from '../../../../src/core/prompts/sync-plan.js';

function file(name: string, prompt: string, extra: Partial<PromptFileData> = {}): LocalPromptFile {
  return { name, path: `prompts/${name}.md`, data: { content: { type: 'text', prompt }, config: {}, labels: [], ...extra } };
}

function version(v: number, prompt: string, labels: string[] = [], config: unknown = {}): ServerVersion {
  return { version: v, labels, content: { type: 'text', prompt }, config };
}

function server(name: string, latest: ServerVersion, options: { versions?: number[]; labels?: string[]; tags?: string[]; labelled?: Record<string, ServerVersion> } = {}): [string, ServerPromptState] {
  const versions = options.versions ?? Array.from({ length: latest.version }, (_, i) => i + 1);
  const labels = options.labels ?? [...new Set([...latest.labels, ...Object.keys(options.labelled ?? {})])];
  return [name, { name, type: 'text', versions, labels, tags: options.tags ?? [], latest, labelled: options.labelled ?? {} }];
}

describe('planPush: one file against the server', () => {
  it('unchanged: the file equals the latest version', () => {
    const plan = planPush({ files: [file('a', 'hi')], server: new Map([server('a', version(3, 'hi', ['latest']))]) });
    expect(plan.actions).toEqual([{ kind: 'unchanged', name: 'a', path: 'prompts/a.md', version: 3, note: undefined }]);
    expect(plan.refused).toEqual([]);
  });

  it('create: a file the server does not have, with the wanted labels', () => {
    const plan = planPush({ files: [file('a', 'hi', { labels: ['production'] })], server: new Map(), labels: ['staging'] });
    expect(plan.actions).toMatchObject([
      { kind: 'create', body: { name: 'a', type: 'text', prompt: 'hi', labels: ['production', 'staging'], config: {} }, labels: [{ label: 'production', from: null }, { label: 'staging', from: null }] },
    ]);
  });

  it('update: text or config differs from the latest version; the body carries the exact content', () => {
    const config = { model: 'gpt-4o' };
    const plan = planPush({ files: [file('a', 'new text\n', { config })], server: new Map([server('a', version(2, 'old', ['latest']))]), commitMessage: 'why' });
    expect(plan.actions).toMatchObject([{ kind: 'update', before: { version: 2 }, body: { prompt: 'new text\n', config, labels: [], commitMessage: 'why' }, labels: [] }]);
    const configOnly = planPush({ files: [file('a', 'old', { config })], server: new Map([server('a', version(2, 'old', ['latest']))]) });
    expect(configOnly.actions[0]!.kind).toBe('update');
  });

  it('compares config regardless of key order', () => {
    const plan = planPush({ files: [file('a', 'x', { config: { b: 1, a: 2 } })], server: new Map([server('a', version(1, 'x', ['latest'], { a: 2, b: 1 }))]) });
    expect(plan.actions[0]!.kind).toBe('unchanged');
  });

  it('move label: the latest version equals the file but the label is elsewhere or nowhere', () => {
    const elsewhere = planPush({
      files: [file('a', 'v2')],
      labels: ['staging'],
      server: new Map([server('a', version(2, 'v2', ['latest']), { labelled: { staging: version(1, 'v1', ['staging']) } })]),
    });
    expect(elsewhere.actions).toEqual([{ kind: 'move-labels', name: 'a', path: 'prompts/a.md', version: 2, labels: [{ label: 'staging', from: 1 }] }]);
    const nowhere = planPush({ files: [file('a', 'v2', { labels: ['production'] })], server: new Map([server('a', version(2, 'v2', ['latest']))]) });
    expect(nowhere.actions).toMatchObject([{ kind: 'move-labels', version: 2, labels: [{ label: 'production', from: null }] }]);
  });

  it('unchanged: a wanted label already points at an older version equal to the file', () => {
    const plan = planPush({
      files: [file('a', 'v1')],
      labels: ['production'],
      server: new Map([server('a', version(3, 'v3', ['latest']), { labelled: { production: version(1, 'v1', ['production']) } })]),
    });
    expect(plan.actions).toMatchObject([{ kind: 'unchanged', version: 1, note: expect.stringContaining('latest version (3) differs') }]);
  });

  it('update with labels: a label on an older, different version goes to the new version', () => {
    const plan = planPush({
      files: [file('a', 'v4')],
      labels: ['production', 'staging'],
      server: new Map([server('a', version(3, 'v3', ['latest', 'staging']), { labelled: { production: version(1, 'v4', ['production']) } })]),
    });
    // production already points at an equal version: only staging moves.
    expect(plan.actions).toMatchObject([{ kind: 'update', body: { labels: ['staging'] }, labels: [{ label: 'staging', from: 3 }] }]);
  });

  it('update tags: same content, different tag set; a new version carries the tags', () => {
    const plan = planPush({ files: [file('a', 'x', { tags: ['b', 'c'] })], server: new Map([server('a', version(1, 'x', ['latest']), { tags: ['a'] })]) });
    expect(plan.actions).toMatchObject([{ kind: 'retag', body: { prompt: 'x', tags: ['b', 'c'] }, tags: { before: ['a'], after: ['b', 'c'] } }]);
    const sameSet = planPush({ files: [file('a', 'x', { tags: ['c', 'b'] })], server: new Map([server('a', version(1, 'x', ['latest']), { tags: ['b', 'c'] })]) });
    expect(sameSet.actions[0]!.kind).toBe('unchanged');
    const unmanaged = planPush({ files: [file('a', 'x')], server: new Map([server('a', version(1, 'x', ['latest']), { tags: ['b'] })]) });
    expect(unmanaged.actions[0]!.kind).toBe('unchanged');
  });

  it('update tags also sets a wanted label in the same create', () => {
    const plan = planPush({ files: [file('a', 'x', { tags: ['t'] })], labels: ['staging'], server: new Map([server('a', version(1, 'x', ['latest']))]) });
    expect(plan.actions).toMatchObject([{ kind: 'retag', body: { labels: ['staging'], tags: ['t'] } }]);
  });

  it('refuse: a type change, latest as a label, invalid commit message', () => {
    const chat: LocalPromptFile = { name: 'a', path: 'prompts/a.yaml', data: { content: { type: 'chat', prompt: [{ role: 'user', content: 'x' }] }, config: {}, labels: [] } };
    const plan = planPush({ files: [chat, file('b', 'x')], labels: ['latest'], server: new Map([server('a', version(1, 'x', ['latest'])), server('b', version(1, 'x', ['latest']))]) });
    expect(plan.refused).toMatchObject([
      { name: 'a', problems: [expect.stringContaining("the label 'latest' cannot be set"), expect.stringContaining('every version of a prompt has one type')] },
      { name: 'b', problems: [expect.stringContaining("'latest'")] },
    ]);
    const long = planPush({ files: [file('c', 'x')], server: new Map(), commitMessage: 'x'.repeat(501) });
    expect(long.refused).toMatchObject([{ name: 'c', problems: [expect.stringContaining('500')] }]);
  });

  it('lists prompts that are only on the server', () => {
    const plan = planPush({ files: [file('a', 'x')], server: new Map([server('a', version(1, 'x', ['latest'])), server('z', version(1, 'z', ['latest'])), server('m', version(1, 'm', ['latest']))]) });
    expect(plan.serverOnly).toEqual(['m', 'z']);
  });
});

describe('planPush: references', () => {
  const ref = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`;

  it('creates referenced prompts before the prompts that reference them', () => {
    const plan = planPush({
      files: [file('a-parent', `x ${ref('m-child', 'label=production')}`), file('m-child', `y ${ref('z-leaf', 'version=1')}`, { labels: ['production'] }), file('z-leaf', 'z')],
      server: new Map(),
    });
    expect(plan.refused).toEqual([]);
    expect(plan.actions.map((a) => a.name)).toEqual(['z-leaf', 'm-child', 'a-parent']);
  });

  it('refuses a reference to a prompt neither on the server nor in the directory', () => {
    const plan = planPush({ files: [file('a', ref('ghost', 'label=production'))], server: new Map() });
    expect(plan.refused).toMatchObject([{ name: 'a', problems: [expect.stringContaining("no prompt 'ghost' exists on the server or in the directory")] }]);
  });

  it('accepts a reference to a prompt on the server with that label or version', () => {
    const child = server('child', version(2, 'c', ['latest', 'production']), { versions: [1, 2] });
    expect(planPush({ files: [file('a', ref('child', 'label=production') + ref('child', 'version=1'))], server: new Map([child]) }).refused).toEqual([]);
    expect(planPush({ files: [file('a', ref('child', 'label=staging'))], server: new Map([child]) }).refused).toMatchObject([{ problems: [expect.stringContaining("no version labelled 'staging'")] }]);
    expect(planPush({ files: [file('a', ref('child', 'version=7'))], server: new Map([child]) }).refused).toMatchObject([{ problems: [expect.stringContaining('no version 7')] }]);
  });

  it('accepts a label the push itself gives the referenced prompt (--label or its file)', () => {
    const files = [file('a', ref('child', 'label=staging')), file('child', 'c')];
    expect(planPush({ files, server: new Map(), labels: ['staging'] }).refused).toEqual([]);
    expect(planPush({ files, server: new Map() }).refused).toHaveLength(1);
  });

  it('refuses a reference to a prompt that is only in the directory and not pushed now (the server would refuse the create)', () => {
    const plan = planPush({ files: [file('a', ref('child', 'label=latest'))], directory: [file('a', 'x'), file('child', 'c')], server: new Map() });
    expect(plan.refused).toMatchObject([{ name: 'a', problems: [expect.stringContaining("'child' is not on the server yet and is not pushed now (prompts/child.md); push it too")] }]);
    expect(plan.actions).toEqual([]);
  });

  it('checks a reference to a prompt that is not pushed now against the server only', () => {
    const child = server('child', version(1, 'c', ['latest']));
    const directory = [file('a', 'x'), file('child', 'c', { labels: ['production'] })];
    expect(planPush({ files: [file('a', ref('child', 'label=latest'))], directory, server: new Map([child]) }).refused).toEqual([]);
    // The child's file would give it production, but the child is not pushed now.
    expect(planPush({ files: [file('a', ref('child', 'label=production'))], directory, server: new Map([child]) }).refused).toMatchObject([
      { name: 'a', problems: [expect.stringContaining("no version labelled 'production'")] },
    ]);
  });

  it('refuses a reference to a chat prompt and to itself', () => {
    const chat: ServerPromptState = { name: 'chat', type: 'chat', versions: [1], labels: ['latest'], tags: [] };
    expect(planPush({ files: [file('a', ref('chat', 'label=latest'))], server: new Map([['chat', chat]]) }).refused).toMatchObject([{ problems: [expect.stringContaining('only text prompts')] }]);
    expect(planPush({ files: [file('a', ref('a', 'label=latest'))], server: new Map() }).refused).toMatchObject([{ problems: [expect.stringContaining('cannot reference itself')] }]);
  });

  it('refuses prompts whose references form a cycle, and those that wait on them', () => {
    const plan = planPush({
      files: [file('a', ref('b', 'label=latest')), file('b', ref('a', 'label=latest')), file('c', ref('a', 'label=latest')), file('d', 'free')],
      server: new Map(),
    });
    expect(plan.actions.map((a) => a.name)).toEqual(['d']);
    expect(plan.refused.map((r) => r.name)).toEqual(['a', 'b', 'c']);
    expect(plan.refused[0]!.problems[0]).toContain('cycle');
  });

  it('never resolves a reference: the body carries the tag as written', () => {
    const prompt = `head ${ref('child', 'label=production')} tail`;
    const plan = planPush({ files: [file('a', prompt)], server: new Map([server('child', version(1, 'c', ['latest', 'production']))]) });
    expect(plan.actions).toMatchObject([{ kind: 'create', body: { prompt } }]);
  });
});
