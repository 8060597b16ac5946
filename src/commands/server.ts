import { homedir, networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PROFILE_NAME, type Profile } from '../config/schema.js';
import { isLoopbackHost } from '../config/url.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { ActionInput } from './action.js';
import { parseOptions } from './options.js';

const Options = z.object({
  port: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535),
  host: z.string().min(1),
  dataDir: z.string().min(1).optional(),
  ephemeral: z.boolean().default(false),
  bearerSecretKey: z.boolean().default(false),
});

/** The profile name the printed command uses when --profile is not given. */
export const DEFAULT_LOCAL_PROFILE = 'local';

export function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'llmobs', 'server');
}

/**
 * The address clients on this machine should use. A server listening on every interface
 * (0.0.0.0 or ::) is reached through loopback: http://0.0.0.0:PORT is not an address to connect
 * to, and llmobs would warn about sending keys over plain http to it on every command.
 */
export function clientUrl(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '0.0.0.0') parsed.hostname = '127.0.0.1';
  else if (host === '::' || host === '0:0:0:0:0:0:0:0') parsed.hostname = '[::1]';
  return parsed.toString().replace(/\/$/, '');
}

/** Addresses other machines may reach a wildcard listener at (non-internal interfaces). */
function otherAddresses(url: string, host: string): string[] {
  const wildcard = host === '0.0.0.0' ? 'IPv4' : host === '::' ? 'any' : undefined;
  if (!wildcard) return [];
  const port = new URL(url).port;
  return Object.values(networkInterfaces())
    .flat()
    .filter((address): address is NonNullable<typeof address> => address !== undefined && !address.internal && (wildcard === 'any' || address.family === 'IPv4'))
    .map((address) => `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${port}`)
    .slice(0, 4);
}

function pointsHere(profile: Profile | undefined, url: string, keys: { publicKey: string; secretKey: string }): boolean {
  return profile?.baseUrl === url && profile.publicKey === keys.publicKey && profile.secretKey === keys.secretKey && !profile.apiKey;
}

/** A profile the local server may replace: one that points at a server on this machine. */
function isLocalProfile(profile: Profile): boolean {
  if (!profile.baseUrl || profile.region) return false;
  try {
    return isLoopbackHost(new URL(profile.baseUrl).hostname);
  } catch {
    return false;
  }
}

export default async function action(ctx: Context, { opts: raw }: ActionInput): Promise<void> {
  const opts = parseOptions(Options, raw);
  // `llmobs server --profile NAME` saves a profile for this server and makes it active. Checked
  // before anything starts, so a refusal leaves nothing running and nothing written.
  const save = ctx.globals.profile;
  const store = await ctx.profiles();
  if (save !== undefined) {
    if (!PROFILE_NAME.test(save)) throw new UsageError(`--profile: "${save}" is not a valid profile name (letters, digits, ".", "_" or "-")`);
    const existing = store.get(save);
    if (existing && !isLocalProfile(existing)) {
      throw new UsageError(`profile "${save}" points at ${existing.baseUrl ?? `the ${existing.region} region`}, not at a server on this machine; it is left as it is`, {
        hint: `Pick another name for the local server, e.g. --profile ${DEFAULT_LOCAL_PROFILE}`,
      });
    }
  }

  const { startServer } = await import('../server/index.js');
  const dataDir = opts.ephemeral ? undefined : resolve(ctx.cwd, opts.dataDir ?? defaultDataDir(ctx.env));
  const server = await startServer({
    port: opts.port,
    host: opts.host,
    dataDir,
    ephemeral: opts.ephemeral,
    bearerSecretKey: opts.bearerSecretKey,
    log: (line) => ctx.out.info(line),
  });
  // Listening for a stop before anything is printed: a script that stops the server as soon as it
  // reads the start line must get a clean close, not a kill.
  const stopped = new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  const url = clientUrl(server.url);
  const keys = server.keys;

  const name = save ?? DEFAULT_LOCAL_PROFILE;
  const existing = store.get(name);
  let saved = false;
  if (save !== undefined) {
    store.put(name, { baseUrl: url, publicKey: keys.publicKey, secretKey: keys.secretKey }, true);
    saved = true;
  }
  const ready = saved || pointsHere(existing, url, keys);
  const active = store.activeName() === name;
  // What makes the profile point here and active: nothing, `profile use`, or `profile add --default`.
  const replaces = existing !== undefined && !ready;
  const profileCommand = ready
    ? active
      ? null
      : `llmobs profile use ${name}`
    : `printf %s '${keys.secretKey}' | llmobs profile add ${name} --base-url ${url} --public-key ${keys.publicKey} --secret-key-stdin --default${replaces ? ' --force' : ''}`;

  if (ctx.globals.json) {
    ctx.out.printJsonLine({
      url,
      listening: server.url,
      project: server.project,
      publicKey: keys.publicKey,
      secretKey: keys.secretKey,
      dataDir: server.dataDir ?? null,
      created: server.created,
      profile: { name, saved, active, pointsHere: ready },
      profileCommand,
      otherAddresses: otherAddresses(server.url, server.host),
    });
  } else {
    ctx.out.line(`llmobs server listening on ${server.url}`);
    ctx.out.keyValues([
      ['  URL', url === server.url ? url : `${url}  (on this machine; it listens on every interface)`],
      ...otherAddresses(server.url, server.host).map((address, i) => [i === 0 ? '  From others' : '', `${address}  (if the firewall lets them in)`] as const),
      ['  Project', `${server.project.name} (${server.project.id})`],
      ['  Public key', keys.publicKey],
      ['  Secret key', keys.secretKey],
      ['  Data', server.dataDir ? `${server.dataDir}${server.created ? ' (new)' : ''}` : 'in memory, gone on exit (--ephemeral)'],
    ]);
    ctx.out.line();
    if (saved) {
      ctx.out.line(`Profile "${name}" points at it and is active: llmobs commands now use this server.`);
    } else if (profileCommand === null) {
      ctx.out.line(`Profile "${name}" already points at it and is active.`);
    } else if (ready) {
      ctx.out.line(`Profile "${name}" already points at it; make it the active one:`);
      ctx.out.line(`  ${profileCommand}`);
    } else {
      const replacing = replaces ? ` (this replaces your profile "${name}", which points at ${existing.baseUrl ?? existing.region})` : '';
      ctx.out.line(`Point a profile at it and make it the active one${replacing}:`);
      ctx.out.line(`  ${profileCommand}`);
      ctx.out.line(`Or start the server with --profile ${name} to do that for you (another name: --profile NAME).`);
    }
    ctx.out.line();
    ctx.out.info('Press Ctrl-C to stop.');
  }
  await stopped;
  await server.close();
  ctx.out.info('server stopped');
}
