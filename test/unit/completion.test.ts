import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram, run } from '../../src/cli.js';
import { completionFileName, describeTree, generate, SHELLS, valuesFor } from '../../src/completion/generate.js';
import { summary } from '../../src/completion/shared.js';
import { REGION_NAMES } from '../../src/config/regions.js';
import { Context, defaultDeps } from '../../src/context.js';
import { Capture, stdinFrom } from '../helpers/streams.js';

const program = () => buildProgram(new Context(defaultDeps()));

describe('shell completion', () => {
  it.each(SHELLS)('completions/%s is up to date with the command tree (run `npm run build && npm run completions`)', async (shell) => {
    const committed = readFileSync(join(import.meta.dirname, '..', '..', 'completions', completionFileName(shell)), 'utf8');
    expect(committed).toBe(generate(shell, await program()));
  });

  it('llmobs completion SHELL prints the same script, and refuses an unknown shell', async () => {
    for (const shell of SHELLS) {
      const stdout = new Capture(false);
      const code = await run(['completion', shell], { io: { stdout, stderr: new Capture(false), stdin: stdinFrom(undefined) } });
      expect([code, stdout.text]).toEqual([0, generate(shell, await program())]);
    }
    const stderr = new Capture(false);
    expect(await run(['completion', 'tcsh'], { io: { stdout: new Capture(false), stderr, stdin: stdinFrom(undefined) } })).toBe(2);
    expect(stderr.text).toContain('bash, zsh, fish');
  });

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

  it('describes every command with its aliases, own and global options, and value kinds', async () => {
    const specs = describeTree(await program());
    const byPath = new Map(specs.map((spec) => [spec.path, spec]));
    expect(byPath.get('')!.children.map((child) => child.name)).toEqual(expect.arrayContaining(['profile', 'prompts', 'api', 'help', 'version']));
    expect(byPath.get('prompts')!.children.find((child) => child.name === 'list')!.aliases).toEqual(['ls']);
    const add = byPath.get('profile add')!;
    expect(add.options.flatMap((o) => o.flags)).toEqual(expect.arrayContaining(['--region', '--public-key', '--secret-key-stdin', '--profile', '--json', '--jq', '--help']));
    expect(add.options.find((o) => o.flags.includes('--region'))!.values).toEqual(REGION_NAMES);
    expect(add.options.find((o) => o.flags.includes('--profile'))!.values).toBe('@profiles');
    expect(add.options.find((o) => o.flags.includes('--json'))!.values).toBe('@none');
    expect(byPath.get('profile use')!.args).toEqual(['@profiles']);
    expect(byPath.get('api')!.options.find((o) => o.flags.includes('--input'))!.values).toBe('@files');
    expect(byPath.get('estimate')!.options.find((o) => o.flags.includes('--level'))!.values).toEqual(['DEBUG', 'DEFAULT', 'WARNING', 'ERROR']);
    expect(byPath.get('help')).toMatchObject({ args: ['@commands'], variadic: true });
  });

  it('names decide values when there are no choices', () => {
    expect(valuesFor('models-file', undefined)).toBe('@files');
    expect(valuesFor('data-dir', undefined)).toBe('@dirs');
    expect(valuesFor('profile', undefined)).toBe('@profiles');
    expect(valuesFor('name', undefined)).toBe('@any');
    expect(valuesFor('name', ['a', 'b'])).toEqual(['a', 'b']);
  });
});
