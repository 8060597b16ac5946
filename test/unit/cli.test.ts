import { describe, expect, it } from 'vitest';
import { EXIT_CODE_HELP } from '../../src/errors.js';
import { VERSION } from '../../src/version.js';
import { runInProcess } from '../helpers/cli.js';

describe('the CLI frame', () => {
  it('prints the version and help, exit 0', async () => {
    const version = await runInProcess(['--version']);
    expect(version.exitCode).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await runInProcess(['--help']);
    expect(help.exitCode).toBe(0);
    // Wrapped to 80 columns: compared with runs of spaces and line breaks as one space.
    for (const [code, text] of EXIT_CODE_HELP) expect(help.stdout.replace(/\s+/g, ' ')).toContain(` ${code} ${text}`);
  });

  it('has --help on every command', async () => {
    for (const path of [['profile'], ['profile', 'add'], ['health'], ['api'], ['server'], ['completion'], ['prompts', 'create'], ['prompts', 'compile'], ['labels', 'promote']]) {
      const result = await runInProcess([...path, '--help']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('Usage: llmobs');
      expect(result.stdout).toContain('--json');
    }
  });

  it('maps usage errors to exit 2 on stderr, as JSON with --json', async () => {
    const unknown = await runInProcess(['whoamii']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/unknown command 'whoamii'/);
    expect(unknown.stderr).toMatch(/whoami/);

    const json = await runInProcess(['health', '--bogus', '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2 } });

    const timeout = await runInProcess(['health', '--timeout', 'soon']);
    expect(timeout.exitCode).toBe(2);
    expect(timeout.stderr).toContain('--timeout must be a whole number from 1 to 3,600,000');
  });

  it('keeps --version after a command for the command, and prints the version before one', async () => {
    for (const argv of [['--version'], ['--json', '--version'], ['-V']]) {
      const result = await runInProcess(argv);
      expect([argv, result.exitCode, result.stdout.trim()]).toEqual([argv, 0, VERSION]);
    }
    const help = await runInProcess(['prompts', 'get', '--help']);
    expect(help.stdout).toMatch(/--version <n>\s+a version number/);
    const local = await runInProcess(['prompts', 'get', 'x', '--version', 'two']);
    expect(local.exitCode).toBe(2);
    expect(local.stdout).not.toContain(VERSION);
  });

  it('treats a command group without a verb as a usage error', async () => {
    const result = await runInProcess(['profile']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Usage: llmobs profile');
  });
});

// Exit codes that mean one thing wherever they come from.
describe('a profile that does not exist', () => {
  it.each([[['profile', 'use', 'nope']], [['profile', 'show', 'nope']], [['profile', 'remove', 'nope', '--yes']], [['profile', 'test', 'nope']], [['--profile', 'nope', 'whoami']]])(
    '%j exits 3 with one message',
    async (argv) => {
      const result = await runInProcess([...argv, '--json']);
      expect(result.exitCode).toBe(3);
      expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'profile_not_found', exitCode: 3, hint: 'Add it with: llmobs profile add nope' });
      expect(JSON.parse(result.stderr).error.message).toMatch(/^profile "nope" not found( \(from --profile\))?; no profiles are configured$/);
    },
  );
});
