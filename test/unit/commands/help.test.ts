// llmobs help COMMAND.
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/cli.js';
import { Capture, stdinFrom } from '../../helpers/streams.js';

describe('help and version', () => {
  it('help with an unknown command says which ones exist, exit 2', async () => {
    const result = await capture(['help', 'prompts', 'nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('unknown command "prompts nope"');
    expect(result.stderr).toContain('create, get, list');
  });

  it('help follows aliases at any depth', async () => {
    expect((await capture(['help', 'prompt', 'ls'])).stdout).toBe((await capture(['prompts', 'list', '--help'])).stdout);
  });
});

async function capture(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const stdout = new Capture(false);
  const stderr = new Capture(false);
  const exitCode = await run(argv, { io: { stdout, stderr, stdin: stdinFrom(undefined, false) } });
  return { exitCode, stdout: stdout.text, stderr: stderr.text };
}
