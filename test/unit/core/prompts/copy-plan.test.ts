import { describe, expect, it } from 'vitest';
import { type CopyDestination, type CopySource, planCopy, type SourceVersion } from '../../../../src/core/prompts/copy-plan.js';
import type { ServerVersion } from '../../../../src/core/prompts/sync-plan.js';

const sv = (version: number, prompt: string, labels: string[] = [], commitMessage: string | null = null): SourceVersion => ({ version, labels, content: { type: 'text', prompt }, config: {}, commitMessage });
const dv = (version: number, prompt: string, labels: string[] = []): ServerVersion => ({ version, labels, content: { type: 'text', prompt }, config: {} });

function source(name: string, versions: SourceVersion[], extra: Partial<CopySource> = {}): CopySource {
  const latestVersion = Math.max(...versions.map((v) => v.version));
  return { name, type: 'text', tags: [], allVersions: Array.from({ length: latestVersion }, (_, i) => i + 1), versions, latestVersion, ...extra };
}
function destination(name: string, known: ServerVersion[], extra: Partial<CopyDestination> = {}): [string, CopyDestination] {
  const versions = extra.versions ?? known.map((v) => v.version);
  return [name, { name, type: 'text', versions, labels: [...new Set(known.flatMap((v) => v.labels))], tags: [], known, ...extra }];
}

describe('planCopy', () => {
  it('into an empty destination: every version created in order with its labels (never latest), tags once, commit messages', () => {
    const plan = planCopy([source('a', [sv(4, 'four', ['latest', 'staging'], 'm4'), sv(2, 'two', ['production'], 'm2')], { tags: ['t'] })], new Map());
    expect(plan.refused).toEqual([]);
    expect(plan.prompts[0]!.steps).toEqual([
      { kind: 'create', name: 'a', sourceVersion: 2, expectVersion: 1, body: { name: 'a', type: 'text', prompt: 'two', labels: ['production'], tags: ['t'], config: {}, commitMessage: 'm2' } },
      { kind: 'create', name: 'a', sourceVersion: 4, expectVersion: 2, body: { name: 'a', type: 'text', prompt: 'four', labels: ['staging'], config: {}, commitMessage: 'm4' } },
    ]);
    expect(plan.prompts[0]!.mapping).toEqual([
      { source: 2, destination: 1, created: true },
      { source: 4, destination: 2, created: true },
    ]);
  });

  it('unchanged when the destination already has equal versions with the labels', () => {
    const plan = planCopy([source('a', [sv(2, 'two', ['production']), sv(4, 'four', ['latest', 'staging'])])], new Map([destination('a', [dv(1, 'two', ['production']), dv(2, 'four', ['latest', 'staging'])])]));
    expect(plan.prompts[0]!.steps).toEqual([]);
    expect(plan.prompts[0]!.mapping).toEqual([
      { source: 2, destination: 1, created: false },
      { source: 4, destination: 2, created: false },
    ]);
  });

  it('moves a label to the equal version instead of creating one', () => {
    const plan = planCopy([source('a', [sv(2, 'two'), sv(4, 'four', ['latest', 'staging', 'production'])])], new Map([destination('a', [dv(1, 'two', ['production']), dv(2, 'four', ['latest', 'staging'])])]));
    expect(plan.prompts[0]!.steps).toEqual([{ kind: 'move-labels', name: 'a', sourceVersion: 4, version: 2, labels: ['production'] }]);
  });

  it('creates the latest again when it equals an older destination version but not the destination latest', () => {
    const plan = planCopy([source('a', [sv(3, 'old', ['latest'])])], new Map([destination('a', [dv(1, 'old', ['production']), dv(2, 'newer', ['latest'])])]));
    expect(plan.prompts[0]!.steps).toMatchObject([{ kind: 'create', expectVersion: 3, body: { prompt: 'old' } }]);
  });

  it('after a create, the source latest is created too, so it stays the newest', () => {
    const plan = planCopy([source('a', [sv(1, 'one', ['production']), sv(2, 'two', ['latest'])])], new Map([destination('a', [dv(5, 'two', ['latest'])], { versions: [1, 2, 3, 4, 5] })]));
    expect(plan.prompts[0]!.steps.map((s) => (s.kind === 'create' ? `create v${s.expectVersion} ${s.body.prompt}` : s.kind))).toEqual(['create v6 one', 'create v7 two']);
  });

  it('tags that differ without new content: the latest content once more, with the tags', () => {
    const plan = planCopy([source('a', [sv(1, 'x', ['latest', 'production'])], { tags: ['new'] })], new Map([destination('a', [dv(3, 'x', ['latest'])], { tags: ['old'], versions: [1, 2, 3] })]));
    expect(plan.prompts[0]!.steps).toEqual([{ kind: 'create', name: 'a', sourceVersion: 1, expectVersion: 4, body: { name: 'a', type: 'text', prompt: 'x', labels: ['production'], tags: ['new'], config: {} } }]);
  });

  it('--all-versions: matches in order and creates what follows the first gap', () => {
    const versions = [sv(1, 'a'), sv(2, 'b'), sv(3, 'c', ['latest'])];
    const plan = planCopy([source('p', versions)], new Map([destination('p', [dv(1, 'a'), dv(2, 'b')])]));
    expect(plan.prompts[0]!.mapping).toEqual([
      { source: 1, destination: 1, created: false },
      { source: 2, destination: 2, created: false },
      { source: 3, destination: 3, created: true },
    ]);
  });

  it('copies only the labels asked for', () => {
    const plan = planCopy([source('a', [sv(2, 'two', ['production', 'qa'])], { onlyLabels: ['production'] })], new Map());
    expect(plan.prompts[0]!.steps).toMatchObject([{ body: { labels: ['production'] } }]);
  });

  it('references: children first, version numbers rewritten to the destination\'s, labels kept', () => {
    const child = source('child', [sv(2, 'kept', ['production']), sv(3, 'newest', ['latest'])]);
    const parent = source('a-parent', [sv(1, 'x @@@langfusePrompt:name=child|version=2@@@ y @@@langfusePrompt:name=child|label=production@@@', ['latest'])]);
    const plan = planCopy([parent, child], new Map());
    expect(plan.prompts.map((p) => p.name)).toEqual(['child', 'a-parent']);
    expect(plan.prompts[1]!.steps).toMatchObject([{ body: { prompt: 'x @@@langfusePrompt:name=child|version=1@@@ y @@@langfusePrompt:name=child|label=production@@@' } }]);
  });

  it('rewrites a version reference however its number is spelled (version=02 is version 2 to the server), in text and chat prompts', () => {
    const child = source('child', [sv(2, 'kept', ['production']), sv(3, 'newest', ['latest'])]);
    const parent = source('a-parent', [sv(1, 'x @@@langfusePrompt:name=child|version=02@@@ y @@@langfusePrompt:name=child|version=2@@@', ['latest'])]);
    const chat: CopySource = {
      ...source('b-chat', []),
      type: 'chat',
      latestVersion: 1,
      allVersions: [1],
      versions: [{ version: 1, labels: ['latest'], content: { type: 'chat', prompt: [{ role: 'system', content: 'z @@@langfusePrompt:name=child|version=2.0@@@' }] }, config: {}, commitMessage: null }],
    };
    const plan = planCopy([parent, chat, child], new Map());
    expect(plan.refused).toEqual([]);
    expect(plan.prompts.find((p) => p.name === 'a-parent')!.steps).toMatchObject([
      { body: { prompt: 'x @@@langfusePrompt:name=child|version=1@@@ y @@@langfusePrompt:name=child|version=1@@@' } },
    ]);
    expect(plan.prompts.find((p) => p.name === 'b-chat')!.steps).toMatchObject([{ body: { prompt: [{ role: 'system', content: 'z @@@langfusePrompt:name=child|version=1@@@' }] } }]);
  });

  it('a label reference holds only for labels that are copied', () => {
    const child = source('child', [sv(2, 'c', ['latest', 'production', 'staging'])], { onlyLabels: ['production'] });
    const parent = source('parent', [sv(1, '@@@langfusePrompt:name=child|label=staging@@@', ['latest'])]);
    expect(planCopy([parent, child], new Map()).refused).toMatchObject([{ name: 'parent', problems: [expect.stringContaining("no version labelled 'staging'")] }]);
  });

  it('refuses a version reference to a version that is not copied, and its parent only', () => {
    const child = source('child', [sv(3, 'c', ['latest'])]);
    const parent = source('parent', [sv(1, '@@@langfusePrompt:name=child|version=2@@@', ['latest'])]);
    const plan = planCopy([parent, child], new Map());
    expect(plan.refused).toMatchObject([{ name: 'parent', problems: [expect.stringContaining('--all-versions')] }]);
    expect(plan.prompts.map((p) => p.name)).toEqual(['child']);
  });

  it('checks references to prompts that are not copied against the destination', () => {
    const parent = source('parent', [sv(1, '@@@langfusePrompt:name=other|label=production@@@', ['latest'])]);
    expect(planCopy([parent], new Map()).refused).toMatchObject([{ problems: [expect.stringContaining('does not exist in the destination')] }]);
    expect(planCopy([parent], new Map([destination('other', [dv(1, 'o', ['latest'])])])).refused).toMatchObject([{ problems: [expect.stringContaining("no version labelled 'production'")] }]);
    expect(planCopy([parent], new Map([destination('other', [dv(1, 'o', ['latest', 'production'])])])).refused).toEqual([]);
  });

  it('refuses a type mismatch, a cycle, and prompts that reference a refused prompt', () => {
    const plan = planCopy(
      [
        source('a', [sv(1, '@@@langfusePrompt:name=b|label=latest@@@', ['latest'])]),
        source('b', [sv(1, '@@@langfusePrompt:name=a|label=latest@@@', ['latest'])]),
        source('c', [sv(1, '@@@langfusePrompt:name=t|label=latest@@@', ['latest'])]),
        source('t', [sv(1, 't', ['latest'])]),
      ],
      new Map([destination('t', [{ version: 1, labels: ['latest'], content: { type: 'chat', prompt: [] }, config: {} }], { type: 'chat' })]),
    );
    expect(plan.refused.map((r) => r.name).sort()).toEqual(['a', 'b', 'c', 't']);
    expect(plan.prompts).toEqual([]);
  });
});
