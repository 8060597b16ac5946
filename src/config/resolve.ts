// Which server and which credentials a command uses, and where each value came from.
//
// Order: flags > environment > active profile, with one rule on top: a profile named explicitly
// (--profile or LLMOBS_PROFILE) is used whole, so stray LANGFUSE_* variables in a developer's
// shell cannot silently mix another project's keys into it. Credentials always come as a set
// from one source; only --base-url may override the server of an explicit profile.
import { ConfigError, ProfileNotFoundError } from '../errors.js';
import type { GlobalOptions } from '../context.js';
import { maskKey } from './mask.js';
import { DEFAULT_REGION, REGIONS, type Region } from './regions.js';
import type { Profile } from './schema.js';
import type { ProfileStore } from './store.js';
import { normaliseBaseUrl } from './url.js';

export interface Source {
  kind: 'flag' | 'env' | 'profile' | 'default';
  /** The flag, variable, profile name, or a description of the default. */
  name: string;
}

export type Auth =
  | { type: 'basic'; publicKey: string; secretKey: string }
  | { type: 'bearer'; apiKey: string }
  | { type: 'none' };

export interface ResolvedConfig {
  profile: { name: string; source: Source } | undefined;
  baseUrl: string;
  baseUrlSource: Source;
  auth: Auth;
  /** Where each credential value came from (only those that are set). */
  keySources: { publicKey?: Source; secretKey?: Source; apiKey?: Source };
  notes: string[];
}

/** Everything that could be resolved, with gaps left undefined (for `profile show`). */
export interface ConfigView extends Omit<ResolvedConfig, 'baseUrl' | 'baseUrlSource' | 'auth'> {
  baseUrl: string | undefined;
  baseUrlSource: Source | undefined;
  credentials: Credentials;
  /** Set when the view cannot be used to send an authenticated request. */
  problem: ConfigError | undefined;
}

interface Credentials {
  publicKey?: string | undefined;
  secretKey?: string | undefined;
  apiKey?: string | undefined;
}

interface ResolveInput {
  globals: Pick<GlobalOptions, 'profile' | 'baseUrl'>;
  env: Record<string, string | undefined>;
  store: Pick<ProfileStore, 'get' | 'activeName' | 'names' | 'path'>;
}

const KEY_VARS = {
  publicKey: ['LLMOBS_PUBLIC_KEY', 'LANGFUSE_PUBLIC_KEY'],
  secretKey: ['LLMOBS_SECRET_KEY', 'LANGFUSE_SECRET_KEY'],
  apiKey: ['LLMOBS_API_KEY'],
} as const;

const URL_VARS = ['LLMOBS_BASE_URL', 'LANGFUSE_BASE_URL', 'LANGFUSE_HOST'] as const;

/** Variables whose values are secrets. */
export const SECRET_VARIABLES = [...KEY_VARS.secretKey, ...KEY_VARS.apiKey] as const;

export const ENVIRONMENT_VARIABLES = [
  'LLMOBS_PROFILE',
  ...URL_VARS,
  ...KEY_VARS.publicKey,
  ...KEY_VARS.secretKey,
  ...KEY_VARS.apiKey,
] as const;

export function profileUrl(profile: Profile): string | undefined {
  if (profile.baseUrl) return profile.baseUrl;
  if (profile.region) return REGIONS[profile.region as Region].url;
  return undefined;
}

export function describeConfig({ globals, env, store }: ResolveInput): ConfigView {
  const notes: string[] = [];
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

  // 1. Which profile.
  let selected: { name: string; source: Source; explicit: boolean } | undefined;
  if (globals.profile) selected = { name: globals.profile, source: { kind: 'flag', name: '--profile' }, explicit: true };
  else if (value('LLMOBS_PROFILE')) {
    selected = { name: value('LLMOBS_PROFILE')!, source: { kind: 'env', name: 'LLMOBS_PROFILE' }, explicit: true };
  } else {
    const active = store.activeName();
    if (active) selected = { name: active, source: { kind: 'profile', name: `active profile in ${store.path}` }, explicit: false };
  }
  let profile: Profile | undefined;
  if (selected) {
    profile = store.get(selected.name);
    if (!profile) {
      const known = store.names();
      if (selected.explicit) throw new ProfileNotFoundError(selected.name, known, sourceText(selected.source));
      const listing = known.length ? `known profiles: ${known.join(', ')}` : 'no profiles are configured';
      notes.push(`the active profile "${selected.name}" no longer exists; ignoring it (${listing})`);
      selected = undefined;
    }
  }

  // 2. Which credentials: one set, from one source.
  const envKeys: Credentials = {};
  const envKeySources: ResolvedConfig['keySources'] = {};
  for (const field of Object.keys(KEY_VARS) as Array<keyof typeof KEY_VARS>) {
    const name = KEY_VARS[field].find((candidate) => value(candidate) !== undefined);
    if (name) {
      envKeys[field] = value(name);
      envKeySources[field] = { kind: 'env', name };
    }
  }
  const haveEnvKeys = Object.keys(envKeys).length > 0;
  let credentials: Credentials = {};
  let keySources: ResolvedConfig['keySources'] = {};
  let keysFromEnv = false;
  if (haveEnvKeys && !selected?.explicit) {
    credentials = envKeys;
    keySources = envKeySources;
    keysFromEnv = true;
    if (selected) notes.push(`keys from ${Object.values(envKeySources).map((s) => s.name).join(', ')} take precedence over the active profile "${selected.name}"`);
  } else if (profile && selected) {
    credentials = { publicKey: profile.publicKey, secretKey: profile.secretKey, apiKey: profile.apiKey };
    for (const field of ['publicKey', 'secretKey', 'apiKey'] as const) {
      if (credentials[field]) keySources[field] = { kind: 'profile', name: selected.name };
    }
    if (haveEnvKeys) {
      notes.push(`${Object.values(envKeySources).map((s) => s.name).join(', ')} ignored: profile "${selected.name}" was selected by ${sourceText(selected.source)}`);
    }
  }

  // 3. Which server.
  let rawUrl: string | undefined;
  let baseUrlSource: Source | undefined;
  const fromProfile = profile ? profileUrl(profile) : undefined;
  const envUrlVar = URL_VARS.find((name) => value(name) !== undefined);
  if (globals.baseUrl) {
    rawUrl = globals.baseUrl;
    baseUrlSource = { kind: 'flag', name: '--base-url' };
  } else if (selected?.explicit && fromProfile) {
    rawUrl = fromProfile;
    baseUrlSource = { kind: 'profile', name: selected.name };
  } else if (envUrlVar) {
    rawUrl = value(envUrlVar);
    baseUrlSource = { kind: 'env', name: envUrlVar };
  } else if (fromProfile && selected && !keysFromEnv) {
    rawUrl = fromProfile;
    baseUrlSource = { kind: 'profile', name: selected.name };
  } else if (keysFromEnv) {
    rawUrl = REGIONS[DEFAULT_REGION].url;
    baseUrlSource = { kind: 'default', name: `the Langfuse SDK default (${DEFAULT_REGION.toUpperCase()} region)` };
  }
  const baseUrl = rawUrl === undefined || baseUrlSource === undefined ? undefined : normaliseBaseUrl(rawUrl, sourceText(baseUrlSource));

  return {
    profile: selected ? { name: selected.name, source: selected.source } : undefined,
    baseUrl,
    baseUrlSource,
    credentials,
    keySources,
    notes,
    problem: undefined,
  };
}

export function resolveConfig(input: ResolveInput & { requireAuth: boolean }): ResolvedConfig {
  const view = describeConfig(input);
  if (view.baseUrl === undefined || view.baseUrlSource === undefined) {
    throw new ConfigError('no server configured', {
      hint: 'Add a profile (llmobs profile add <name> --region eu|us), pass --base-url, or set LANGFUSE_HOST.',
    });
  }
  const auth = input.requireAuth ? authFrom(view) : ({ type: 'none' } as const);
  return {
    profile: view.profile,
    baseUrl: view.baseUrl,
    baseUrlSource: view.baseUrlSource,
    auth,
    keySources: view.keySources,
    notes: view.notes,
  };
}

function authFrom(view: ConfigView): Auth {
  const { publicKey, secretKey, apiKey } = view.credentials;
  const where = view.profile ? `profile "${view.profile.name}"` : 'the environment';
  if (secretKey && publicKey) return { type: 'basic', publicKey, secretKey };
  if (secretKey && !publicKey) {
    throw new ConfigError(`a secret key is set in ${where} but no public key`, {
      hint: 'Langfuse authenticates with the pair: set LANGFUSE_PUBLIC_KEY too, or run llmobs profile add.',
    });
  }
  if (apiKey) return { type: 'bearer', apiKey };
  if (publicKey) {
    throw new ConfigError(`public key ${maskKey(publicKey)} in ${where} has no secret key`, {
      hint: 'Set LANGFUSE_SECRET_KEY, or re-add the profile: llmobs profile add <name> --secret-key-stdin',
    });
  }
  throw new ConfigError('no credentials configured', {
    hint: 'Add a profile with: llmobs profile add <name>, or set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY.',
  });
}

export function sourceText(source: Source): string {
  switch (source.kind) {
    case 'flag':
      return source.name;
    case 'env':
      return `$${source.name}`;
    case 'profile':
      return source.name.startsWith('active profile') ? source.name : `profile "${source.name}"`;
    case 'default':
      return source.name;
  }
}
