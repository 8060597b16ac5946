// The summaries of the completion scripts: the first clause of a help text.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli.js';
import { describeTree } from '../../../src/completion/generate.js';
import { summary } from '../../../src/completion/shared.js';
import { Context, defaultDeps } from '../../../src/context.js';

const program = () => buildProgram(new Context(defaultDeps()));

describe('shell completion', () => {

  it('describes commands and options in the first clause of their help, never cut inside a word such as Node.js or e.g.', async () => {
    expect(summary('server address, e.g. https://us.cloud.langfuse.com or http://localhost:3000')).toBe('server address');
    expect(summary('check the setup end to end: Node.js, file permissions')).toBe('check the setup end to end: Node.js, file permissions');
    expect(summary('print the version of llmobs and of Node.js')).toBe('print the version of llmobs and of Node.js');
    expect(summary('delete one version (--version), the versions with a label (--label), or the whole prompt')).toBe('delete one version, the versions with a label, or the whole prompt');
    expect(summary('unified diff of the content (chat messages one per block) and the config of two versions')).toBe('unified diff of the content and the config of two versions');
    expect(summary('retries after a rate limit; see --help. More text')).toBe('retries after a rate limit');
    expect(summary("fill in variables as the SDKs' compile() does")).toBe("fill in variables as the SDKs' compile() does");
    expect(summary('a'.repeat(40) + ' ' + 'b'.repeat(40))).toBe(`${'a'.repeat(40)}...`);
    // Every description in the tree gives a summary that ends on a whole word.
    for (const spec of describeTree(await program())) {
      for (const text of [...spec.children.map((child) => child.description), ...spec.options.map((option) => option.description)]) {
        expect(summary(text), text).not.toMatch(/(\b[ei]|\bNode|[^.]\.)$/);
      }
    }
  });
});
