import { describe, expect, it } from 'vitest';
import type { CreateModelBody } from '../../../../src/core/models/request.js';
import { type FileModel, planModelSync, sameModelBody, type ServerModel } from '../../../../src/core/models/sync-plan.js';

const body = (modelName: string, extra: Partial<CreateModelBody> = {}): CreateModelBody => ({ modelName, matchPattern: `(?i)^${modelName}$`, unit: 'TOKENS', inputPrice: 1e-6, ...extra });
const file = (index: number, b: CreateModelBody, id?: string): FileModel => ({ index, body: b, ...(id ? { id } : {}) });
const server = (id: string, b: CreateModelBody | undefined, managed = false): ServerModel => ({ id, modelName: b?.modelName ?? id, isLangfuseManaged: managed, body: b });

describe('planModelSync', () => {
  it('unchanged, replace and create; matched by id, else by name', () => {
    const plan = planModelSync(
      [file(0, body('a')), file(1, body('renamed'), 'id-b'), file(2, body('c', { inputPrice: 2e-6 })), file(3, body('d'))],
      [server('id-a', body('a')), server('id-b', body('b')), server('id-c', body('c'))],
      { prune: false },
    );
    expect(plan.problems).toEqual([]);
    expect(plan.actions).toEqual([
      { kind: 'unchanged', index: 0, id: 'id-a', modelName: 'a' },
      { kind: 'replace', index: 1, id: 'id-b', before: body('b'), body: body('renamed') },
      { kind: 'replace', index: 2, id: 'id-c', before: body('c'), body: body('c', { inputPrice: 2e-6 }) },
      { kind: 'create', index: 3, id: undefined, body: body('d') },
    ]);
  });

  it('an id the server does not have is created under that id', () => {
    expect(planModelSync([file(0, body('a'), 'mine')], [], { prune: false }).actions).toEqual([{ kind: 'create', index: 0, id: 'mine', body: body('a') }]);
  });

  it('prune deletes the project\'s definitions the file does not match, last; never built-in ones', () => {
    const plan = planModelSync([file(0, body('a'))], [server('id-a', body('a')), server('id-z', body('z')), server('gpt-4o', body('gpt-4o'), true)], { prune: true });
    expect(plan.actions).toEqual([{ kind: 'unchanged', index: 0, id: 'id-a', modelName: 'a' }, { kind: 'delete', id: 'id-z', modelName: 'z' }]);
    expect(planModelSync([file(0, body('a'))], [server('id-z', body('z'))], { prune: false }).actions).toEqual([{ kind: 'create', index: 0, id: undefined, body: body('a') }]);
  });

  it('deletes first a definition whose name the file gives to another one', () => {
    const plan = planModelSync([file(0, body('taken'), 'id-new')], [server('id-old', body('taken')), server('id-new', body('x'))], { prune: true });
    expect(plan.actions.map((a) => a.kind)).toEqual(['delete', 'replace']);
    expect(planModelSync([file(0, body('taken'), 'id-new')], [server('id-old', body('taken')), server('id-new', body('x'))], { prune: false }).problems).toEqual([
      expect.stringContaining('delete it with --prune'),
    ]);
  });

  it('refuses duplicate names, two entries matching one definition, and ids of built-in definitions', () => {
    const plan = planModelSync([file(0, body('a')), file(1, body('a')), file(2, body('b'), 'id-b'), file(3, body('c'), 'id-b'), file(4, body('gpt-4o'), 'builtin')], [server('id-b', body('b')), server('builtin', body('gpt-4o'), true)], { prune: false });
    expect(plan.problems).toEqual([
      expect.stringContaining('also used by definition 1'),
      expect.stringContaining('matches the same definition (id-b) as definition 3'),
      expect.stringContaining('built-in definition'),
    ]);
  });

  it('prune leaves alone a definition llmobs cannot write to a file', () => {
    const unwritable: ServerModel = { id: 'id-u', modelName: 'u', isLangfuseManaged: false, body: undefined };
    const plan = planModelSync([], [unwritable], { prune: true });
    expect(plan.actions).toEqual([]);
    expect(plan.notPruned).toEqual([unwritable]);
  });

  it('a server definition llmobs cannot write back always counts as changed', () => {
    expect(planModelSync([file(0, body('a'))], [{ id: 'id-a', modelName: 'a', isLangfuseManaged: false, body: undefined }], { prune: false }).actions[0]!.kind).toBe('replace');
  });

  it('compares bodies regardless of key order and start date spelling', () => {
    expect(sameModelBody(body('a', { startDate: '2026-01-01' }), { startDate: '2026-01-01T00:00:00.000Z', unit: 'TOKENS', inputPrice: 1e-6, matchPattern: '(?i)^a$', modelName: 'a' })).toBe(true);
    expect(sameModelBody(body('a'), body('a', { outputPrice: 1e-6 }))).toBe(false);
  });
});
