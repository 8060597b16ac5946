// What profile show prints: a stored profile, or the settings in effect with where each comes
// from. Keys are masked.
import { maskKey } from '../../config/mask.js';
import { summarise } from '../../config/profile-parts.js';
import { describeConfig, type Source, sourceText } from '../../config/resolve.js';
import type { Profile } from '../../config/schema.js';
import type { ProfileStore } from '../../config/store.js';
import type { Context } from '../../context.js';

/** A stored profile: its server, auth and masked keys. */
export function printStored(ctx: Context, store: ProfileStore, name: string, profile: Profile): void {
  const data = {
    ...summarise(name, profile, store.activeName() === name),
    secretKey: profile.secretKey ? maskKey(profile.secretKey) : null,
    apiKey: profile.apiKey ? maskKey(profile.apiKey) : null,
    path: store.path,
  };
  if (ctx.globals.json) {
    ctx.out.printJson(data);
    return;
  }
  ctx.out.keyValues([
    ['Profile', `${name}${data.active ? ' (active)' : ''}`],
    ['Server', data.baseUrl],
    ['Region', data.region ?? 'none (custom server)'],
    ['Auth', data.auth],
    ['Public key', data.publicKey],
    ['Secret key', data.secretKey],
    ...(data.apiKey ? ([['API key', data.apiKey]] as const) : []),
    ['File', store.path],
  ]);
}

/** The settings in effect and where each comes from; throws what makes them unusable. */
export function printEffective(ctx: Context, store: ProfileStore): void {
  const view = describeConfig({ globals: ctx.globals, env: ctx.env, store });
  const { publicKey, secretKey, apiKey } = view.credentials;
  const from = (source: Source | undefined) => (source ? sourceText(source) : null);
  const auth = secretKey && publicKey ? 'basic' : apiKey ? 'bearer' : 'none';
  const data = {
    profile: view.profile ? { name: view.profile.name, from: from(view.profile.source) } : null,
    credentialsFrom: view.credentialsFrom ?? null,
    baseUrl: view.baseUrl ? { value: view.baseUrl, from: from(view.baseUrlSource) } : null,
    auth,
    publicKey: publicKey ? { value: maskKey(publicKey), from: from(view.keySources.publicKey) } : null,
    secretKey: secretKey ? { value: maskKey(secretKey), from: from(view.keySources.secretKey) } : null,
    apiKey: apiKey ? { value: maskKey(apiKey), from: from(view.keySources.apiKey) } : null,
    configFile: store.path,
    notes: view.notes,
    problem: view.problem ? { message: view.problem.message, hint: view.problem.hint ?? null } : null,
  };
  if (ctx.globals.json) {
    ctx.out.printJson(data);
    if (view.problem) throw view.problem;
    return;
  }
  const withSource = (entry: { value: string; from: string | null } | null) => (entry ? `${entry.value}  ${ctx.out.c.dim(`(${entry.from})`)}` : ctx.out.c.dim('not set'));
  ctx.out.keyValues([
    ['Profile', data.profile ? `${data.profile.name}  ${ctx.out.c.dim(`(${data.profile.from})`)}` : ctx.out.c.dim('none')],
    ['Server', withSource(data.baseUrl)],
    ['Auth', auth],
    ['Public key', withSource(data.publicKey)],
    ['Secret key', withSource(data.secretKey)],
    ...(apiKey ? ([['API key', withSource(data.apiKey)]] as const) : []),
    ['Config file', store.path],
  ]);
  for (const note of view.notes) ctx.out.hint(`note: ${note}`);
  // The settings cannot be used as they are: say so with the exit code every command would give.
  if (view.problem) throw view.problem;
}
