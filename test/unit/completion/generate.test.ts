// The completion scripts of the command tree, as committed in completions/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli.js';
import { completionFileName, describeTree, generate, SHELLS, valuesFor } from '../../../src/completion/generate.js';
import { REGION_NAMES } from '../../../src/config/regions.js';
import { Context, defaultDeps } from '../../../src/context.js';

const program = () => buildProgram(new Context(defaultDeps()));

describe('shell completion', () => {
  it.each(SHELLS)('completions/%s is up to date with the command tree (run `npm run build && npm run completions`)', async (shell) => {
    const committed = readFileSync(join(import.meta.dirname, '..', '..', '..', 'completions', completionFileName(shell)), 'utf8');
    expect(committed).toBe(generate(shell, await program()));
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
