import { describe, expect, it } from 'vitest';
import { type PulledPrompt, planPull, type PullPlanInput, pullTargets, setAsideUnwritable } from '../../../../src/core/prompts/pull-plan.js';
import type { LocalPromptFile } from '../../../../src/core/prompts/sync-plan.js';

const pulled = (name: string, prompt: string, version = 1, tags: string[] = []): PulledPrompt => ({ name, tags, version: { version, labels: ['latest'], content: { type: 'text', prompt }, config: {} } });
const local = (name: string, prompt: string, labels: string[] = []): LocalPromptFile => ({ name, path: `prompts/${name}.md`, data: { content: { type: 'text', prompt }, config: {}, labels } });

function plan(prompts: PulledPrompt[], files: LocalPromptFile[] = [], extra: Partial<PullPlanInput> = {}) {
  const pathsByName = new Map(files.map((file) => [file.name, [`${file.name}.md`]]));
  return planPull({ prompts, files, pathsByName, dir: 'prompts/', force: false, ...extra });
}

describe('pullTargets', () => {
  it('asks for the latest by number, skips prompts without the version asked for, and ignores prompts with no version', () => {
    const prompts = [{ name: 'a', versions: [1, 3, 2] }, { name: 'b', versions: [1] }, { name: 'c', versions: [] }];
    expect(pullTargets(prompts, { label: 'latest' }).targets).toEqual([{ name: 'a', selector: { version: 3 } }, { name: 'b', selector: { version: 1 } }]);
    expect(pullTargets(prompts, { label: 'production' }).targets).toEqual([{ name: 'a', selector: { label: 'production' } }, { name: 'b', selector: { label: 'production' } }]);
    expect(pullTargets(prompts, { version: 2 })).toEqual({
      targets: [{ name: 'a', selector: { version: 2 } }],
      skipped: [{ name: 'b', version: null, file: '', outcome: 'skipped', reason: 'no version 2' }],
    });
  });
});

describe('setAsideUnwritable', () => {
  it('keeps the targets whose names can be files and sets the others aside unread, with the reason', () => {
    const targets = ['ok/name', '..', '.', '../x', '/etc/passwd', 'a\\..\\x', 'a//b', 'x/.git/y'].map((name) => ({ name, selector: { label: 'latest' } as const }));
    const result = setAsideUnwritable(targets);
    expect(result.targets.map((t) => t.name)).toEqual(['ok/name']);
    expect(result.setAside.map((row) => [row.name, row.outcome])).toEqual(targets.slice(1).map((t) => [t.name, 'set aside']));
    expect(result.setAside.map((row) => row.reason)).toEqual([
      "a prompt named '..' cannot be read through the API (URLs drop such a path segment) nor be a file",
      "a prompt named '.' cannot be read through the API (URLs drop such a path segment) nor be a file",
      "the name '../x' has a folder '..' that cannot be a directory",
      "the name '/etc/passwd' is an absolute path",
      "the name 'a\\..\\x' has a backslash, a folder separator on Windows: its file would not be the same on every system",
      "the name 'a//b' has a folder '' that cannot be a directory",
      "the name 'x/.git/y' has a folder '.git', which is not searched for prompt files",
    ]);
  });
});

describe('planPull', () => {
  it('writes a new file, leaves an equal one alone and keeps one that differs', () => {
    const result = plan([pulled('new', 'hello'), pulled('same', 'one', 2), pulled('changed', 'server')], [local('same', 'one'), local('changed', 'mine')]);
    expect(result.writes).toEqual([{ name: 'new', stem: 'new', extension: 'md', text: expect.stringContaining('hello'), replaces: undefined }]);
    expect(result.rows).toEqual([
      { name: 'new', version: 1, file: 'prompts/new.md', outcome: 'written' },
      { name: 'same', version: 2, file: 'prompts/same.md', outcome: 'unchanged' },
      { name: 'changed', version: 1, file: 'prompts/changed.md', outcome: 'kept: differs' },
    ]);
  });

  it('overwrites a file that differs with force, keeping the labels the file wants', () => {
    const result = plan([pulled('changed', 'server')], [local('changed', 'mine', ['staging'])], { force: true });
    expect(result.rows).toEqual([{ name: 'changed', version: 1, file: 'prompts/changed.md', outcome: 'overwritten' }]);
    expect(result.writes).toHaveLength(1);
    expect(result.writes[0]!.replaces).toBe('changed.md');
    expect(result.writes[0]!.text).toContain('staging');
  });

  it('a file whose tags differ from the prompt\'s differs', () => {
    const file: LocalPromptFile = { ...local('t', 'x'), data: { ...local('t', 'x').data, tags: ['old'] } };
    expect(plan([pulled('t', 'x', 1, ['new'])], [file]).rows[0]!.outcome).toBe('kept: differs');
    expect(plan([pulled('t', 'x', 1, ['old'])], [file]).rows[0]!.outcome).toBe('unchanged');
  });

  it('sets aside names that differ only in case or Unicode form, and names that cannot be a path', () => {
    const result = plan([pulled('Foo', 'a'), pulled('foo', 'b'), pulled('café', 'c'), pulled('bad/../name', 'd')], [local('cafe\u0301', 'c')]);
    expect(result.writes).toEqual([]);
    expect(result.rows.map((row) => [row.name, row.outcome])).toEqual([
      ['Foo', 'set aside'],
      ['foo', 'set aside'],
      ['café', 'set aside'],
      ['bad/../name', 'set aside'],
    ]);
    expect(result.rows[0]!.reason).toBe("differs from 'foo' only in case or Unicode form: one file on macOS and Windows");
    expect(result.rows[3]!.reason).toContain("folder '..'");
  });

  it('keeps every file when several give one prompt', () => {
    const result = planPull({ prompts: [pulled('a', 'x')], files: [], pathsByName: new Map([['a', ['a.md', 'a.yaml']]]), dir: 'prompts', force: true });
    expect(result.writes).toEqual([]);
    expect(result.rows).toEqual([{ name: 'a', version: 1, file: 'a.md, a.yaml', outcome: 'kept: differs', reason: 'several files give this prompt' }]);
  });
});
