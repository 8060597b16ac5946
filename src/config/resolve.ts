// Which server and which credentials a command uses, and where each value came from.
//
// Settings come from ONE source, never a mix:
//
// 1. A profile named explicitly (--profile or LLMOBS_PROFILE) is used whole: LANGFUSE_* / LLMOBS_*
//    keys and hosts in the environment are ignored (and said to be).
// 2. Otherwise the environment, when it holds a complete set of credentials: a key pair
//    (LLMOBS_PUBLIC_KEY/LLMOBS_SECRET_KEY, else LANGFUSE_PUBLIC_KEY/LANGFUSE_SECRET_KEY) or
//    LLMOBS_API_KEY. Its server is the environment's host variable, else the Langfuse SDK
//    default; never the active profile's. Half a pair is an error that names the variables:
//    it must not silently replace the active profile, nor be silently ignored.
// 3. Otherwise the active profile, whole (a host variable alone does not redirect its keys).
//
// --base-url overrides the server in every case. Every value keeps its source, so messages,
// `whoami` and `profile show` name the real one.
import { ConfigError, ProfileNotFoundError } from '../errors.js';
import type { GlobalOptions } from '../types.js';
import { maskKey } from './mask.js';
import { DEFAULT_REGION, REGION_NAMES, REGIONS, type Region } from './regions.js';
import type { Profile } from './schema.js';
import type { ProfileStore } from './store.js';
import { normaliseBaseUrl } from './url.js';
import { KEY_VARS, URL_VARS } from './variables.js';

// Where they are defined apart, so that a command can check them without loading this module.
export { ENVIRONMENT_VARIABLES, SECRET_VARIABLES } from './variables.js';

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
  /** The profile in use; undefined when the settings come from the environment or flags. */
  profile: { name: string; source: Source } | undefined;
  baseUrl: string;
  baseUrlSource: Source;
  auth: Auth;
  /** Where each credential value came from (only those that are set). */
  keySources: { publicKey?: Source; secretKey?: Source; apiKey?: Source };
  /** The source of the credentials in words, e.g. `profile "prod"` or `$LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY`. */
  credentialsFrom: string | undefined;
  /** Settings that were present but not used, and why. */
  notes: string[];
}

/** Everything that could be resolved, with gaps left undefined (for `profile show` and `doctor`). */
export interface ConfigView extends Omit<ResolvedConfig, 'baseUrl' | 'baseUrlSource' | 'auth'> {
  baseUrl: string | undefined;
  baseUrlSource: Source | undefined;
  credentials: Credentials;
  /** Set when the settings cannot be used as they are (e.g. half a key pair in the environment). */
  problem: ConfigError | undefined;
}

interface Credentials {
  publicKey?: string | undefined;
  secretKey?: string | undefined;
  apiKey?: string | undefined;
}

interface ResolveInput {
  globals: Pick<GlobalOptions, 'profile' | 'baseUrl'>;
  /** The flag that named `globals.profile`, when not --profile (e.g. --to-profile of a copy). */
  profileFlag?: string | undefined;
  env: Record<string, string | undefined>;
  store: Pick<ProfileStore, 'get' | 'activeName' | 'names' | 'path'>;
}

export function profileUrl(profile: Profile): string | undefined {
  if (profile.baseUrl) return profile.baseUrl;
  if (profile.region) return REGIONS[profile.region as Region].url;
  return undefined;
}

/** The other half of a pair variable: LANGFUSE_PUBLIC_KEY <-> LANGFUSE_SECRET_KEY. */
const partner = (name: string) => (name.includes('PUBLIC') ? name.replace('PUBLIC', 'SECRET') : name.replace('SECRET', 'PUBLIC'));
const list = (names: readonly string[]) => names.map((name) => `$${name}`).join(', ');

export function describeConfig({ globals, env, store, profileFlag }: ResolveInput): ConfigView {
  const notes: string[] = [];
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

  // 1. Which profile.
  let selected: { name: string; source: Source; explicit: boolean } | undefined;
  if (globals.profile) selected = { name: globals.profile, source: { kind: 'flag', name: profileFlag ?? '--profile' }, explicit: true };
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

  // 2. What the environment holds.
  const envKeys: Credentials = {};
  const envKeySources: ResolvedConfig['keySources'] = {};
  for (const field of Object.keys(KEY_VARS) as Array<keyof typeof KEY_VARS>) {
    const name = KEY_VARS[field].find((candidate) => value(candidate) !== undefined);
    if (name) {
      envKeys[field] = value(name);
      envKeySources[field] = { kind: 'env', name };
    }
  }
  const envKeyNames = Object.values(envKeySources).map((source) => source.name);
  const envUrlVar = URL_VARS.find((name) => value(name) !== undefined);
  const halfPair = (envKeys.publicKey === undefined) !== (envKeys.secretKey === undefined);
  const envComplete = !halfPair && ((envKeys.publicKey !== undefined && envKeys.secretKey !== undefined) || envKeys.apiKey !== undefined);

  let problem: ConfigError | undefined;
  let credentials: Credentials = {};
  let keySources: ResolvedConfig['keySources'] = {};
  let credentialsFrom: string | undefined;
  let useProfile = false;
  let useEnv = false;

  if (selected?.explicit) {
    useProfile = true;
    const ignored = [...envKeyNames, ...(envUrlVar && profileUrl(profile!) ? [envUrlVar] : [])];
    if (ignored.length) notes.push(`${list(ignored)} ignored: profile "${selected.name}" was selected by ${sourceText(selected.source)}, and a profile is used whole`);
  } else if (halfPair) {
    const [have, missing] = envKeys.publicKey !== undefined ? (['publicKey', 'secretKey'] as const) : (['secretKey', 'publicKey'] as const);
    const setName = envKeySources[have]!.name;
    const fallback = selected ? `unset ${setName} to use the active profile "${selected.name}"` : `unset ${setName}`;
    const word = missing === 'secretKey' ? 'secret' : 'public';
    problem = new ConfigError(`$${setName} is set but no ${word} key is (${list(KEY_VARS[missing])}): keys from the environment are used only as a complete pair`, {
      hint: `Set ${partner(setName)} too, or ${fallback}; or choose a profile with --profile NAME.`,
    });
  } else if (envComplete) {
    useEnv = true;
    if (envKeys.publicKey && envKeys.apiKey) notes.push('$LLMOBS_API_KEY ignored: the key pair from the environment is used');
    if (selected) notes.push(`the active profile "${selected.name}" is not used: credentials come from ${list(envKeyNames.filter((n) => n !== 'LLMOBS_API_KEY' || !envKeys.publicKey))} (select the profile with --profile ${selected.name})`);
  } else if (selected) {
    useProfile = true;
    if (envUrlVar && profileUrl(profile!)) {
      notes.push(`$${envUrlVar} ignored: without keys in the environment the active profile "${selected.name}" is used whole (use --base-url to send its keys elsewhere)`);
    }
  }

  if (useProfile && profile && selected) {
    credentials = { publicKey: profile.publicKey, secretKey: profile.secretKey, apiKey: profile.apiKey };
    for (const field of ['publicKey', 'secretKey', 'apiKey'] as const) {
      if (credentials[field]) keySources[field] = { kind: 'profile', name: selected.name };
    }
    credentialsFrom = `profile "${selected.name}"`;
  } else if (useEnv) {
    credentials = envKeys.publicKey ? { publicKey: envKeys.publicKey, secretKey: envKeys.secretKey } : { apiKey: envKeys.apiKey };
    keySources = envKeys.publicKey ? { publicKey: envKeySources.publicKey!, secretKey: envKeySources.secretKey! } : { apiKey: envKeySources.apiKey! };
    credentialsFrom = Object.values(keySources).map((source) => `$${source.name}`).join(' and ');
  }

  // 3. Which server.
  let rawUrl: string | undefined;
  let baseUrlSource: Source | undefined;
  const fromProfile = useProfile && profile ? profileUrl(profile) : undefined;
  if (globals.baseUrl) {
    rawUrl = globals.baseUrl;
    baseUrlSource = { kind: 'flag', name: '--base-url' };
  } else if (fromProfile && selected) {
    rawUrl = fromProfile;
    baseUrlSource = { kind: 'profile', name: selected.name };
  } else if (envUrlVar && !(selected?.explicit && fromProfile)) {
    rawUrl = value(envUrlVar);
    baseUrlSource = { kind: 'env', name: envUrlVar };
  } else if (useEnv) {
    rawUrl = REGIONS[DEFAULT_REGION].url;
    baseUrlSource = { kind: 'default', name: `the Langfuse SDK default (${DEFAULT_REGION.toUpperCase()} region)` };
  }
  const baseUrl = rawUrl === undefined || baseUrlSource === undefined ? undefined : normaliseBaseUrl(rawUrl, sourceText(baseUrlSource));

  return {
    profile: useProfile && selected ? { name: selected.name, source: selected.source } : undefined,
    baseUrl,
    baseUrlSource,
    credentials,
    keySources,
    credentialsFrom,
    notes,
    problem,
  };
}

export function resolveConfig(input: ResolveInput & { requireAuth: boolean }): ResolvedConfig {
  const view = describeConfig(input);
  if (view.problem) throw view.problem;
  if (view.baseUrl === undefined || view.baseUrlSource === undefined) {
    throw new ConfigError('no server configured', {
      hint: `Add a profile (llmobs profile add <name> --region ${REGION_NAMES.join('|')}), pass --base-url, or set LANGFUSE_HOST with LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY.`,
    });
  }
  const auth = input.requireAuth ? authFrom(view) : ({ type: 'none' } as const);
  return {
    profile: view.profile,
    baseUrl: view.baseUrl,
    baseUrlSource: view.baseUrlSource,
    auth,
    keySources: view.keySources,
    credentialsFrom: view.credentialsFrom,
    notes: view.notes,
  };
}

function authFrom(view: ConfigView): Auth {
  const { publicKey, secretKey, apiKey } = view.credentials;
  const where = view.credentialsFrom ?? 'the settings';
  if (secretKey && publicKey) return { type: 'basic', publicKey, secretKey };
  // Half a pair can only come from a profile here: the environment's is refused earlier.
  const readd = view.profile ? `llmobs profile add ${view.profile.name} --force` : 'llmobs profile add <name>';
  if (secretKey && !publicKey) {
    throw new ConfigError(`${where} has a secret key but no public key`, {
      hint: `Langfuse authenticates with the pair: re-add it with ${readd} --public-key pk-lf-... --secret-key-stdin`,
    });
  }
  if (apiKey) return { type: 'bearer', apiKey };
  if (publicKey) {
    throw new ConfigError(`${where} has public key ${maskKey(publicKey)} but no secret key`, {
      hint: `Re-add it with the secret key on stdin: printf %s "$SECRET" | ${readd} --public-key pk-lf-... --secret-key-stdin`,
    });
  }
  throw new ConfigError(view.profile ? `profile "${view.profile.name}" has no keys` : 'no credentials configured', {
    hint: 'Add a profile with: llmobs profile add <name>, or set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY (both).',
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
