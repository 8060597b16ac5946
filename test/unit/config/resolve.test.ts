import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { describeConfig, resolveConfig } from '../../../src/config/resolve.js';
import type { Profile } from '../../../src/config/schema.js';
import { ConfigError } from '../../../src/errors.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';

function store(profiles: Record<string, Profile>, active?: string) {
  return {
    path: '/cfg/config.json',
    names: () => Object.keys(profiles).sort(),
    get: (name: string) => profiles[name],
    activeName: () => active,
  };
}

const prod: Profile = { region: 'us', publicKey: 'pk-lf-prod-1234567890', secretKey: 'sk-lf-prod-1234567890' };
const dev: Profile = { baseUrl: 'http://localhost:3000', publicKey: 'pk-lf-dev-1234567890', secretKey: 'sk-lf-dev-1234567890' };
const LANGFUSE = { LANGFUSE_PUBLIC_KEY: 'pk-lf-env-1234567890', LANGFUSE_SECRET_KEY: 'sk-lf-env-1234567890' };

describe('resolveConfig', () => {
  it('uses the active profile when nothing else is given', () => {
    const config = resolveConfig({ globals: {}, env: {}, store: store({ prod }, 'prod'), requireAuth: true });
    expect(config.baseUrl).toBe('https://us.cloud.langfuse.com');
    expect(config.auth).toEqual({ type: 'basic', publicKey: prod.publicKey, secretKey: prod.secretKey });
    expect(config.profile?.name).toBe('prod');
    expect(config.baseUrlSource).toEqual({ kind: 'profile', name: 'prod' });
  });

  it('lets a complete environment key pair replace the active profile whole, with the SDK default host', () => {
    const config = resolveConfig({ globals: {}, env: LANGFUSE, store: store({ prod }, 'prod'), requireAuth: true });
    expect(config.auth).toEqual({ type: 'basic', publicKey: LANGFUSE.LANGFUSE_PUBLIC_KEY, secretKey: LANGFUSE.LANGFUSE_SECRET_KEY });
    // The active profile's US host must not be mixed with keys from another source.
    expect(config.baseUrl).toBe('https://cloud.langfuse.com');
    expect(config.baseUrlSource.kind).toBe('default');
    // The profile is not in use, so nothing may name it as the source.
    expect(config.profile).toBeUndefined();
    expect(config.credentialsFrom).toBe('$LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY');
    expect(config.notes.join()).toMatch(/the active profile "prod" is not used: credentials come from \$LANGFUSE_PUBLIC_KEY, \$LANGFUSE_SECRET_KEY/);
  });

  it('refuses half a key pair in the environment, naming the variables, instead of replacing the profile', () => {
    for (const [set, missing] of [
      ['LANGFUSE_PUBLIC_KEY', /no secret key is \(\$LLMOBS_SECRET_KEY, \$LANGFUSE_SECRET_KEY\)/],
      ['LANGFUSE_SECRET_KEY', /no public key is \(\$LLMOBS_PUBLIC_KEY, \$LANGFUSE_PUBLIC_KEY\)/],
      ['LLMOBS_PUBLIC_KEY', /no secret key is/],
    ] as const) {
      const env = { [set]: 'pk-lf-stray-1234567890' };
      const error = (() => {
        try {
          resolveConfig({ globals: {}, env, store: store({ prod }, 'prod'), requireAuth: true });
        } catch (e) {
          return e as ConfigError;
        }
        throw new Error('expected a ConfigError');
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.exitCode).toBe(3);
      expect(error.message).toContain(`$${set} is set`);
      expect(error.message).toMatch(missing);
      expect(error.message).not.toContain('prod');
      expect(error.hint).toContain(`unset ${set} to use the active profile "prod"`);
      // Even an unauthenticated command (health) must not silently go elsewhere.
      expect(() => resolveConfig({ globals: {}, env, store: store({ prod }, 'prod'), requireAuth: false })).toThrow(ConfigError);
      // profile show gets the problem to print, not an exception.
      expect(describeConfig({ globals: {}, env, store: store({ prod }, 'prod') }).problem?.message).toBe(error.message);
    }
  });

  it('ignores half a pair when a profile is named explicitly, and says so', () => {
    const config = resolveConfig({ globals: { profile: 'prod' }, env: { LANGFUSE_PUBLIC_KEY: 'pk-lf-stray-1234567890' }, store: store({ prod }), requireAuth: true });
    expect(config.auth).toMatchObject({ publicKey: prod.publicKey });
    expect(config.notes.join()).toMatch(/\$LANGFUSE_PUBLIC_KEY ignored: profile "prod" was selected by --profile/);
  });

  it('prefers LLMOBS_* variables over LANGFUSE_* ones', () => {
    const config = resolveConfig({
      globals: {},
      env: { ...LANGFUSE, LLMOBS_SECRET_KEY: 'sk-lf-llmobs-123456789', LANGFUSE_HOST: 'https://lf.example.com', LLMOBS_BASE_URL: 'https://llmobs.example.com/' },
      store: store({}),
      requireAuth: true,
    });
    expect(config.auth).toMatchObject({ secretKey: 'sk-lf-llmobs-123456789', publicKey: LANGFUSE.LANGFUSE_PUBLIC_KEY });
    expect(config.keySources.secretKey).toEqual({ kind: 'env', name: 'LLMOBS_SECRET_KEY' });
    expect(config.keySources.publicKey).toEqual({ kind: 'env', name: 'LANGFUSE_PUBLIC_KEY' });
    expect(config.baseUrl).toBe('https://llmobs.example.com');
  });

  it('uses an explicitly selected profile whole, ignoring stray environment keys', () => {
    for (const selection of [{ globals: { profile: 'dev' }, env: LANGFUSE }, { globals: {}, env: { ...LANGFUSE, LLMOBS_PROFILE: 'dev' } }]) {
      const config = resolveConfig({ ...selection, env: { ...selection.env, LANGFUSE_HOST: 'https://elsewhere.example.com' }, store: store({ prod, dev }, 'prod'), requireAuth: true });
      expect(config.profile?.name).toBe('dev');
      expect(config.auth).toMatchObject({ secretKey: dev.secretKey });
      expect(config.baseUrl).toBe('http://localhost:3000');
      expect(config.notes.join()).toMatch(/ignored: profile "dev" was selected/);
    }
  });

  it('lets --base-url override even an explicit profile', () => {
    const config = resolveConfig({ globals: { profile: 'prod', baseUrl: 'https://self.example.com/api/public/' }, env: {}, store: store({ prod }), requireAuth: true });
    expect(config.baseUrl).toBe('https://self.example.com');
    expect(config.baseUrlSource).toEqual({ kind: 'flag', name: '--base-url' });
  });

  it('does not let a host variable alone send the active profile\'s keys elsewhere', () => {
    const config = resolveConfig({ globals: {}, env: { LANGFUSE_HOST: 'http://127.0.0.1:9999' }, store: store({ prod }, 'prod'), requireAuth: true });
    expect(config.baseUrl).toBe('https://us.cloud.langfuse.com');
    expect(config.baseUrlSource).toEqual({ kind: 'profile', name: 'prod' });
    expect(config.auth).toMatchObject({ secretKey: prod.secretKey });
    expect(config.notes.join()).toMatch(/\$LANGFUSE_HOST ignored/);
    // --base-url is the way to do it on purpose.
    expect(resolveConfig({ globals: { baseUrl: 'http://127.0.0.1:9999' }, env: {}, store: store({ prod }, 'prod'), requireAuth: true }).baseUrl).toBe('http://127.0.0.1:9999');
  });

  it('uses a host variable when there is no profile (unauthenticated calls such as health)', () => {
    const config = resolveConfig({ globals: {}, env: { LANGFUSE_HOST: 'http://127.0.0.1:9999' }, store: store({}), requireAuth: false });
    expect(config.baseUrl).toBe('http://127.0.0.1:9999');
    expect(config.baseUrlSource).toEqual({ kind: 'env', name: 'LANGFUSE_HOST' });
  });

  it('names the real source when a profile lacks its secret key', () => {
    const half: Profile = { region: 'eu', publicKey: 'pk-lf-half-1234567890' };
    const error = (() => {
      try {
        resolveConfig({ globals: {}, env: {}, store: store({ half }, 'half'), requireAuth: true });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error.message).toBe('profile "half" has public key pk-lf-…7890 but no secret key');
    expect(error.hint).toContain('llmobs profile add half --force');
  });

  it('uses a Bearer key when only an API key is configured', () => {
    const config = resolveConfig({ globals: {}, env: { LLMOBS_API_KEY: 'sk-lf-bearer-123456', LLMOBS_BASE_URL: 'http://localhost:3000' }, store: store({}), requireAuth: true });
    expect(config.auth).toEqual({ type: 'bearer', apiKey: 'sk-lf-bearer-123456' });
  });

  it('fails with exit 3 and a hint for each missing piece', () => {
    const attempt = (input: Parameters<typeof resolveConfig>[0]) => {
      try {
        resolveConfig(input);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).exitCode).toBe(3);
        return error as ConfigError;
      }
      throw new Error('expected a ConfigError');
    };
    expect(attempt({ globals: { profile: 'nope' }, env: {}, store: store({ prod }), requireAuth: true }).hint).toContain('llmobs profile add nope');
    expect(attempt({ globals: {}, env: {}, store: store({}), requireAuth: true }).message).toBe('no server configured');
    expect(attempt({ globals: {}, env: { LANGFUSE_SECRET_KEY: 'sk-lf-x-123456789' }, store: store({}), requireAuth: true }).message).toMatch(/\$LANGFUSE_SECRET_KEY is set but no public key/);
    expect(attempt({ globals: {}, env: { LANGFUSE_HOST: 'http://localhost:3000' }, store: store({}), requireAuth: true }).message).toBe('no credentials configured');
    expect(attempt({ globals: { baseUrl: 'ftp://x' }, env: {}, store: store({}), requireAuth: false }).message).toMatch(/http or https/);
    expect(attempt({ globals: { baseUrl: 'https://user:pw@x.example.com' }, env: {}, store: store({}), requireAuth: false }).message).toMatch(/must not contain credentials/);
  });

  it('does not need credentials for unauthenticated calls', () => {
    const config = resolveConfig({ globals: { baseUrl: 'http://localhost:3000' }, env: {}, store: store({}), requireAuth: false });
    expect(config.auth).toEqual({ type: 'none' });
  });

  it('ignores an active profile that no longer exists, and says so', () => {
    const view = describeConfig({ globals: {}, env: {}, store: store({ prod }, 'gone') });
    expect(view.profile).toBeUndefined();
    expect(view.notes[0]).toMatch(/"gone" no longer exists/);
  });
});

// Where settings come from, as whoami, profile show and a failing request say it: a stray
// environment variable never silently replaces the active profile, and every message names the
// real source.
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
