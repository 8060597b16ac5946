// llmobs completion SHELL.
import { describe, expect, it } from 'vitest';
import { buildProgram, run } from '../../../src/cli.js';
import { generate, SHELLS } from '../../../src/completion/generate.js';
import { Context, defaultDeps } from '../../../src/context.js';
import { Capture, stdinFrom } from '../../helpers/streams.js';

const program = () => buildProgram(new Context(defaultDeps()));

describe('shell completion', () => {

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
});
