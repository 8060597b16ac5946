// llmobs version.
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/cli.js';
import { Capture, stdinFrom } from '../../helpers/streams.js';

describe('help and version', () => {

  it('version prints the version, and JSON with --json', async () => {
    const { VERSION } = await import('../../../src/version.js');
    const text = await capture(['version']);
    expect(text.stdout).toBe(`llmobs ${VERSION} (node ${process.version}, ${process.platform}-${process.arch})\n`);
    expect(JSON.parse((await capture(['version', '--json'])).stdout)).toEqual({ version: VERSION, node: process.version, platform: `${process.platform}-${process.arch}` });
  });
});

async function capture(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const stdout = new Capture(false);
  const stderr = new Capture(false);
  const exitCode = await run(argv, { io: { stdout, stderr, stdin: stdinFrom(undefined, false) } });
  return { exitCode, stdout: stdout.text, stderr: stderr.text };
}
