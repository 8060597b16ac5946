// Where settings come from, as whoami, profile show and a failing request say it: a stray
// environment variable never silently replaces the active profile, and every message names the
// real source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { isolatedEnv, runInProcess } from '../helpers/cli.js';

let server: RunningServer;
let other: RunningServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
  other = await startServer({ port: 0, ephemeral: true });
  env = isolatedEnv();
  const added = await runInProcess(['profile', 'add', 'prod-us', '--base-url', server.url, '--public-key', server.keys.publicKey, '--secret-key-stdin'], { env, stdin: server.keys.secretKey });
  expect(added.exitCode, added.stderr).toBe(0);
});

afterAll(async () => {
  await server.close();
  await other.close();
});

describe('settings sources', () => {
  it('refuses a stray public key with exit 3, naming the variables, not the profile', async () => {
    for (const command of [['whoami'], ['models', 'list'], ['health']]) {
      const result = await runInProcess(command, { env: { ...env, LANGFUSE_PUBLIC_KEY: 'pk-lf-stray-12345678' } });
      expect(result.exitCode, command.join(' ')).toBe(3);
      expect(result.stderr).toContain('error: $LANGFUSE_PUBLIC_KEY is set but no secret key is ($LLMOBS_SECRET_KEY, $LANGFUSE_SECRET_KEY)');
      expect(result.stderr).toContain('unset LANGFUSE_PUBLIC_KEY to use the active profile "prod-us"');
      expect(result.stderr).not.toContain('in profile');
    }
    const show = await runInProcess(['profile', 'show', '--json'], { env: { ...env, LANGFUSE_PUBLIC_KEY: 'pk-lf-stray-12345678' } });
    expect(show.exitCode).toBe(3);
    expect(JSON.parse(show.stdout).problem.message).toContain('$LANGFUSE_PUBLIC_KEY is set');
  });

  it('with a complete pair in the environment, whoami says the keys and server come from it, not the profile', async () => {
    const pair = { ...env, LANGFUSE_HOST: other.url, LANGFUSE_PUBLIC_KEY: other.keys.publicKey, LANGFUSE_SECRET_KEY: other.keys.secretKey };
    const whoami = await runInProcess(['whoami', '--json'], { env: pair });
    expect(whoami.exitCode, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({
      profile: null,
      credentialsFrom: '$LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY',
      baseUrl: other.url,
      baseUrlFrom: '$LANGFUSE_HOST',
      notes: [expect.stringContaining('the active profile "prod-us" is not used')],
    });
    const text = await runInProcess(['whoami'], { env: pair });
    expect(text.stdout).toMatch(/^Profile\tnone$/m);
    expect(text.stdout).toMatch(/^Key\tpk-lf-…\w{4} \(basic\)  \(\$LANGFUSE_PUBLIC_KEY and \$LANGFUSE_SECRET_KEY\)$/m);
    expect(text.stderr).toContain('note: the active profile "prod-us" is not used');
  });

  it('names the environment in a 401, not the profile', async () => {
    const wrong = { ...env, LANGFUSE_HOST: other.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey };
    const result = await runInProcess(['whoami'], { env: wrong });
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain(`Sent to ${other.url} (from $LANGFUSE_HOST) with $LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY (public key`);
    expect(result.stderr).toContain('Note: the active profile "prod-us" is not used');
    expect(result.stderr).toContain('llmobs doctor');
    expect(result.stderr).not.toContain(server.keys.secretKey);
  });

  it('keeps the active profile whole when only a host variable is set', async () => {
    const whoami = await runInProcess(['whoami', '--json'], { env: { ...env, LANGFUSE_HOST: other.url } });
    expect(whoami.exitCode, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ profile: 'prod-us', baseUrl: server.url, credentialsFrom: 'profile "prod-us"', notes: [expect.stringContaining('$LANGFUSE_HOST ignored')] });
    const show = await runInProcess(['profile', 'show'], { env: { ...env, LANGFUSE_HOST: other.url } });
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toMatch(/^Server\t.* \(profile "prod-us"\)$/m);
    expect(show.stderr).toContain('$LANGFUSE_HOST ignored');
  });

  it('shows each source dimmed on a terminal, not as escaped control characters', async () => {
    for (const command of [['whoami'], ['profile', 'show'], ['health']]) {
      const result = await runInProcess(command, { env: { ...env, FORCE_COLOR: '1' }, tty: true });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout, command.join(' ')).not.toContain('\\e[');
      expect(result.stdout, command.join(' ')).toContain('\u001b[');
    }
  });

  it('names the flag that named an unknown profile: --from-profile and --to-profile of prompts copy', async () => {
    const to = await runInProcess(['prompts', 'copy', '--all', '--to-profile', 'nope'], { env });
    expect(to.exitCode).toBe(3);
    expect(to.stderr).toContain('profile "nope" not found (from --to-profile)');
    const from = await runInProcess(['prompts', 'copy', '--all', '--from-profile', 'gone', '--to-profile', 'prod-us'], { env });
    expect(from.exitCode).toBe(3);
    expect(from.stderr).toContain('profile "gone" not found (from --from-profile)');
  });
});
