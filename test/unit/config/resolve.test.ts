import { describe, expect, it } from 'vitest';
import { describeConfig, resolveConfig } from '../../../src/config/resolve.js';
import type { Profile } from '../../../src/config/schema.js';
import { ConfigError } from '../../../src/errors.js';

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

  it('lets environment keys override the active profile, as a set, with the SDK default host', () => {
    const config = resolveConfig({ globals: {}, env: LANGFUSE, store: store({ prod }, 'prod'), requireAuth: true });
    expect(config.auth).toEqual({ type: 'basic', publicKey: LANGFUSE.LANGFUSE_PUBLIC_KEY, secretKey: LANGFUSE.LANGFUSE_SECRET_KEY });
    // The active profile's US host must not be mixed with keys from another source.
    expect(config.baseUrl).toBe('https://cloud.langfuse.com');
    expect(config.baseUrlSource.kind).toBe('default');
    expect(config.notes.join()).toMatch(/take precedence over the active profile "prod"/);
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

  it('lets an environment host override the active profile host (flags > env > profile)', () => {
    const config = resolveConfig({ globals: {}, env: { LANGFUSE_HOST: 'http://127.0.0.1:9999' }, store: store({ prod }, 'prod'), requireAuth: true });
    expect(config.baseUrl).toBe('http://127.0.0.1:9999');
    expect(config.auth).toMatchObject({ secretKey: prod.secretKey });
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
    expect(attempt({ globals: {}, env: { LANGFUSE_SECRET_KEY: 'sk-lf-x-123456789' }, store: store({}), requireAuth: true }).message).toMatch(/no public key/);
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
