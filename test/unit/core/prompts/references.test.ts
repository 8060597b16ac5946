// Prompt references: the tag grammar as the server parses it, and resolution against a set of
// stored versions (SEMANTICS.md e, "Composability").
import { describe, expect, it } from 'vitest';
import {
  MAX_PROMPT_NESTING_DEPTH,
  PromptReferenceError,
  type PromptReference,
  type ReferencedPrompt,
  parsePromptReferences,
  referencedVersions,
  resolvePromptReferences,
} from '../../../../src/core/prompts/index.js';

const tag = (inner: string) => `@@@langfusePrompt:${inner}@@@`;

describe('parsePromptReferences', () => {
  it('reads references by version and by label, in order', () => {
    expect(parsePromptReferences(`a ${tag('name=first|version=1')} b ${tag('name=second|label=staging')}`)).toEqual([
      { name: 'first', type: 'version', version: 1 },
      { name: 'second', type: 'label', label: 'staging' },
    ]);
  });

  it('keeps names with spaces, dots, hyphens and folders', () => {
    expect(parsePromptReferences(tag('name=team/app summary-v1.2|label=prod-v1.0_beta'))).toEqual([
      { name: 'team/app summary-v1.2', type: 'label', label: 'prod-v1.0_beta' },
    ]);
  });

  it.each([
    ['no name', tag('version=1')],
    ['name not first', tag('version=1|name=a')],
    ['only a name', tag('name=a')],
    ['three parts', tag('name=a|version=1|label=x')],
    ['neither version nor label', tag('name=a|something=else')],
    ['an empty name', tag('name=|version=1')],
    ['a version that is not a number', tag('name=a|version=one')],
    ['an empty version and no label', tag('name=a|version=')],
    ['a label part without =', tag('name=a|label')],
    ['no inner text', tag('')],
  ])('ignores a tag with %s', (_, content) => {
    expect(parsePromptReferences(`x ${content} y`)).toEqual([]);
  });

  it('counts a repeated tag once, but two spellings of one version twice', () => {
    const same = tag('name=a|version=1');
    expect(parsePromptReferences(`${same} and ${same}`)).toEqual([{ name: 'a', type: 'version', version: 1 }]);
    expect(parsePromptReferences(`${same} ${tag('name=a|version=01')}`)).toHaveLength(2);
  });

  it('reads a version as a number the way zod coerces it, and takes a value only up to the next =', () => {
    expect(parsePromptReferences(tag('name=a|version=1e1'))).toEqual([{ name: 'a', type: 'version', version: 10 }]);
    expect(parsePromptReferences(tag('name=a|version=Infinity'))).toEqual([]);
    expect(parsePromptReferences(tag('name=a=b|label=x=y'))).toEqual([{ name: 'a', type: 'label', label: 'x' }]);
    expect(parsePromptReferences(tag('name=a|label='))).toEqual([{ name: 'a', type: 'label', label: '' }]);
  });

  it('stops a tag at the first @@@ after it starts', () => {
    expect(parsePromptReferences(`${tag('name=a|version=1')}${tag('name=b|version=2')}`).map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('searches the JSON text of a chat prompt, so JSON escapes stay in a name', () => {
    const chat = [
      { role: 'system', content: `Rules: ${tag('name=rules|label=production')}` },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: tag('name=say "hi"|version=2') },
    ];
    expect(parsePromptReferences(chat)).toEqual([
      { name: 'rules', type: 'label', label: 'production' },
      { name: 'say \\"hi\\"', type: 'version', version: 2 },
    ]);
  });
});

interface Stored extends ReferencedPrompt {
  references: PromptReference[];
}

/** Stored versions with their references; ids are name@version. */
function store(...rows: Array<Omit<Stored, 'id' | 'type' | 'references'> & Partial<Pick<Stored, 'type'>>>) {
  const stored: Stored[] = rows.map((row) => ({ type: 'text', ...row, id: `${row.name}@${row.version}`, references: parsePromptReferences(row.prompt) }));
  return {
    rows: stored,
    source: {
      find: (ref: PromptReference) =>
        stored.find((row) => row.name === ref.name && (ref.type === 'version' ? row.version === ref.version : row.labels.includes(ref.label))),
      referencesOf: (row: Stored) => row.references,
    },
  };
}

/** A version being created: its references come from its content. */
const draft = (name: string, prompt: unknown, version = 1): ReferencedPrompt => ({ id: `new:${name}`, name, version, type: Array.isArray(prompt) ? 'chat' : 'text', prompt, labels: [] });

describe('resolvePromptReferences', () => {
  it('returns the content untouched and no graph without references', () => {
    const { source } = store();
    const root = draft('plain', 'Hello {{name}}');
    expect(resolvePromptReferences(root, source, [])).toEqual({ prompt: 'Hello {{name}}', graph: null });
  });

  it('replaces a reference by version or by a label the version holds, and builds the graph', () => {
    const { source } = store({ name: 'child', version: 1, prompt: 'one', labels: [] }, { name: 'child', version: 2, prompt: 'two', labels: ['production', 'latest'] });
    const content = `v1=${tag('name=child|version=1')} prod=${tag('name=child|label=production')}`;
    const root = draft('parent', content);
    const resolved = resolvePromptReferences(root, source, parsePromptReferences(content));
    expect(resolved.prompt).toBe('v1=one prod=two');
    expect(resolved.graph).toEqual({
      root: { name: 'parent', version: 1, id: 'new:parent' },
      dependencies: { 'new:parent': [{ id: 'child@1', name: 'child', version: 1 }, { id: 'child@2', name: 'child', version: 2 }] },
    });
  });

  it('replaces every tag naming the found version, by number or by any of its labels', () => {
    const { source } = store({ name: 'child', version: 3, prompt: 'C', labels: ['production', 'latest'] });
    const content = `${tag('name=child|label=production')} ${tag('name=child|version=3')} ${tag('name=child|label=latest')} ${tag('name=child|label=other')}`;
    // Only the production reference is stored (as when a version was created with just that tag).
    const resolved = resolvePromptReferences(draft('parent', content), source, [{ name: 'child', type: 'label', label: 'production' }]);
    expect(resolved.prompt).toBe(`C C C ${tag('name=child|label=other')}`);
  });

  it('escapes the child text so quotes, backslashes, line breaks and $ patterns survive inside chat messages', () => {
    const childText = 'Say "hi"\\n and\nthen $& $1 $$ done';
    const { source } = store({ name: 'snippet', version: 1, prompt: childText, labels: ['production'] });
    const chat = [
      { role: 'system', content: `Start. ${tag('name=snippet|label=production')} End.` },
      { type: 'placeholder', name: 'history' },
    ];
    const resolved = resolvePromptReferences(draft('agent', chat), source, parsePromptReferences(chat));
    expect(resolved.prompt).toEqual([{ role: 'system', content: `Start. ${childText} End.` }, { type: 'placeholder', name: 'history' }]);
  });

  it('resolves nested references depth first and records each parent in the graph', () => {
    const { source } = store(
      { name: 'leaf', version: 1, prompt: 'leaf', labels: ['production'] },
      { name: 'middle', version: 4, prompt: `middle(${tag('name=leaf|label=production')})`, labels: ['production'] },
    );
    const content = `top(${tag('name=middle|label=production')})`;
    const resolved = resolvePromptReferences(draft('top', content), source, parsePromptReferences(content));
    expect(resolved.prompt).toBe('top(middle(leaf))');
    expect(resolved.graph!.dependencies).toEqual({
      'new:top': [{ id: 'middle@4', name: 'middle', version: 4 }],
      'middle@4': [{ id: 'leaf@1', name: 'leaf', version: 1 }],
    });
    expect(referencedVersions(resolved.graph!).map((node) => `${node.from.name}>${node.name} v${node.version}`)).toEqual(['top>middle v4', 'middle>leaf v1']);
  });

  it('lists a version reached along two paths once per parent, and its own references once', () => {
    const { source } = store(
      { name: 'leaf', version: 1, prompt: 'leaf', labels: ['production'] },
      { name: 'shared', version: 2, prompt: `shared(${tag('name=leaf|version=1')})`, labels: ['production'] },
      { name: 'mid', version: 3, prompt: `mid(${tag('name=shared|version=2')})`, labels: ['production'] },
    );
    const content = `top(${tag('name=shared|label=production')} ${tag('name=mid|version=3')})`;
    const resolved = resolvePromptReferences(draft('top', content), source, parsePromptReferences(content));
    expect(resolved.prompt).toBe('top(shared(leaf) mid(shared(leaf)))');
    expect(referencedVersions(resolved.graph!).map((node) => `${node.from.name}>${node.name} v${node.version}`)).toEqual(['top>shared v2', 'shared>leaf v1', 'top>mid v3', 'mid>shared v2']);
  });

  it('uses the stored references of a stored root when none are given', () => {
    const { rows, source } = store({ name: 'child', version: 1, prompt: 'C', labels: ['production'] }, { name: 'parent', version: 1, prompt: `P ${tag('name=child|version=1')}`, labels: [] });
    expect(resolvePromptReferences(rows[1]!, source).prompt).toBe('P C');
    rows[1]!.references = [];
    expect(resolvePromptReferences(rows[1]!, source).prompt).toBe(`P ${tag('name=child|version=1')}`);
  });

  it('refuses a missing reference and a chat prompt as a reference', () => {
    const { source } = store({ name: 'chatty', version: 1, type: 'chat', prompt: [{ role: 'user', content: 'x' }], labels: ['production'] });
    const missing = [{ name: 'ghost', type: 'version', version: 1 }] satisfies PromptReference[];
    expect(() => resolvePromptReferences(draft('p', 'x'), source, missing)).toThrow(new PromptReferenceError('Prompt dependency not found: ghost - version 1'));
    const chat = [{ name: 'chatty', type: 'label', label: 'production' }] satisfies PromptReference[];
    expect(() => resolvePromptReferences(draft('p', 'x'), source, chat)).toThrow('Prompt dependency is not a text prompt: chatty - label production');
  });

  it(`allows ${MAX_PROMPT_NESTING_DEPTH} prompts in a chain and refuses one more`, () => {
    const rows = [{ name: 'd4', version: 1, prompt: 'deepest', labels: ['production'] }];
    for (let i = 3; i >= 1; i--) rows.push({ name: `d${i}`, version: 1, prompt: `(${tag(`name=d${i + 1}|label=production`)})`, labels: ['production'] });
    const { source } = store(...rows);
    const content = tag('name=d1|label=production');
    expect(resolvePromptReferences(draft('d0', content), source, parsePromptReferences(content)).prompt).toBe('(((deepest)))');

    const deeper = store({ name: 'd5', version: 1, prompt: 'deepest', labels: ['production'] }, ...rows.map((row) => (row.name === 'd4' ? { ...row, prompt: tag('name=d5|label=production') } : row)));
    expect(() => resolvePromptReferences(draft('d0', content), deeper.source, parsePromptReferences(content))).toThrow('Maximum nesting depth exceeded (5)');
  });

  it('refuses a prompt that references another version of itself, directly or through others', () => {
    const { source } = store(
      { name: 'self', version: 1, prompt: 'first', labels: ['production'] },
      { name: 'other', version: 1, prompt: tag('name=self|label=production'), labels: ['production'] },
    );
    const direct = tag('name=self|version=1');
    expect(() => resolvePromptReferences(draft('self', direct, 2), source, parsePromptReferences(direct))).toThrow(
      "Circular dependency detected involving prompt 'self' version 1",
    );
    const indirect = tag('name=other|label=production');
    expect(() => resolvePromptReferences(draft('self', indirect, 2), source, parsePromptReferences(indirect))).toThrow(/Circular dependency detected involving prompt 'self'/);
  });

  it('refuses a cycle among stored prompts', () => {
    const { rows, source } = store({ name: 'a', version: 1, prompt: tag('name=b|version=1'), labels: [] }, { name: 'b', version: 1, prompt: tag('name=c|version=1'), labels: [] }, { name: 'c', version: 1, prompt: tag('name=b|version=1'), labels: [] });
    expect(() => resolvePromptReferences(rows[0]!, source)).toThrow("Circular dependency detected involving prompt 'b' version 1");
  });

  it('reads each version of a fanned-out graph once, and gives the content and graph of a walk of every path', () => {
    // Four levels of four versions, each version referencing every version of the level below:
    // 4 + 16 + 64 + 256 paths, 16 versions.
    const K = 4;
    const rows: Array<{ name: string; version: number; prompt: string; labels: string[] }> = [];
    for (let level = 1; level <= 4; level++) {
      for (let v = 1; v <= K; v++) {
        const below = level === 4 ? `leaf${v}` : Array.from({ length: K }, (_, w) => tag(`name=l${level + 1}|version=${w + 1}`)).join(',');
        rows.push({ name: `l${level}`, version: v, prompt: `${level}.${v}[${below}]`, labels: [] });
      }
    }
    const { source } = store(...rows);
    let reads = 0;
    const counted = { find: source.find, referencesOf: (row: Stored) => (reads++, row.references) };
    const content = Array.from({ length: K }, (_, v) => tag(`name=l1|version=${v + 1}`)).join(' ');
    const resolved = resolvePromptReferences(draft('top', content), counted, parsePromptReferences(content));
    expect(reads).toBe(4 * K);

    // What a walk of every path gives: each version's text with its references replaced, and the
    // graph's entries made on each visit.
    const expand = (level: number, v: number): string => (level === 4 ? `4.${v}[leaf${v}]` : `${level}.${v}[${Array.from({ length: K }, (_, w) => expand(level + 1, w + 1)).join(',')}]`);
    expect(resolved.prompt).toBe(Array.from({ length: K }, (_, v) => expand(1, v + 1)).join(' '));
    const dependencies: Record<string, Array<{ id: string; name: string; version: number }>> = {};
    const walk = (id: string, level: number) => {
      if (level > 3) return;
      for (let w = 1; w <= K; w++) {
        (dependencies[id] ??= []).push({ id: `l${level + 1}@${w}`, name: `l${level + 1}`, version: w });
        walk(`l${level + 1}@${w}`, level + 1);
      }
    };
    for (let v = 1; v <= K; v++) {
      (dependencies['new:top'] ??= []).push({ id: `l1@${v}`, name: 'l1', version: v });
      walk(`l1@${v}`, 1);
    }
    expect(resolved.graph!.dependencies).toEqual(dependencies);
    expect(resolved.graph!.dependencies['l4@1']).toBeUndefined();
    expect(resolved.graph!.dependencies['l3@1']).toHaveLength(K * K * K);
  });

  it('refuses a version resolved once when a later path reaches it too deep', () => {
    // x's chain is fine under top (x at 1, z at 3), but a second path puts x at 3 and z at 5.
    const { source } = store(
      { name: 'z', version: 1, prompt: 'Z', labels: [] },
      { name: 'y', version: 1, prompt: tag('name=z|version=1'), labels: [] },
      { name: 'x', version: 1, prompt: tag('name=y|version=1'), labels: [] },
      { name: 'b', version: 1, prompt: tag('name=x|version=1'), labels: [] },
      { name: 'a', version: 1, prompt: tag('name=b|version=1'), labels: [] },
    );
    const shallow = tag('name=x|version=1');
    expect(resolvePromptReferences(draft('top', shallow), source, parsePromptReferences(shallow)).prompt).toBe('Z');
    const both = `${tag('name=x|version=1')} ${tag('name=a|version=1')}`;
    expect(() => resolvePromptReferences(draft('top', both), source, parsePromptReferences(both))).toThrow('Maximum nesting depth exceeded (5)');
  });

  it('resolves one child used twice, at two depths, without calling it a cycle', () => {
    const { source } = store({ name: 'shared', version: 1, prompt: 'S', labels: ['production'] }, { name: 'mid', version: 1, prompt: `m${tag('name=shared|version=1')}`, labels: ['production'] });
    const content = `${tag('name=shared|version=1')}-${tag('name=mid|label=production')}`;
    expect(resolvePromptReferences(draft('top', content), source, parsePromptReferences(content)).prompt).toBe('S-mS');
  });
});
