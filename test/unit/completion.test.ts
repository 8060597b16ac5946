import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { completionFileName, describeTree, generate, SHELLS } from '../../src/completion/generate.js';
import { Context, defaultDeps } from '../../src/context.js';

const program = () => buildProgram(new Context(defaultDeps()));

describe('shell completion', () => {
  it.each(SHELLS)('completions/%s is up to date with the command tree (run `npm run build && npm run completions`)', (shell) => {
    const committed = readFileSync(join(import.meta.dirname, '..', '..', 'completions', completionFileName(shell)), 'utf8');
    expect(committed).toBe(generate(shell, program()));
  });

  it('covers every command, alias and option', () => {
    const specs = describeTree(program());
    const paths = specs.map((spec) => spec.path);
    expect(paths).toEqual(expect.arrayContaining(['profile add', 'profile ls', 'profile rm', 'api', 'server', 'completion']));
    const add = specs.find((spec) => spec.path === 'profile add')!;
    expect(add.options.flatMap((o) => o.flags)).toEqual(expect.arrayContaining(['--region', '--public-key', '--secret-key-stdin', '--profile', '--json']));
    expect(add.options.find((o) => o.flags.includes('--profile'))!.values).toBe('@profiles');
    expect(specs.find((spec) => spec.path === 'profile use')!.args).toEqual(['@profiles']);
    expect(specs.find((spec) => spec.path === 'api')!.options.find((o) => o.flags.includes('--input'))!.values).toBe('@files');
  });
});
