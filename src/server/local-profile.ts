// How the server command presents a local server: the address clients use, the addresses others may
// reach it at, where it keeps its data, and the profile that points at it.
import { homedir, networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { type Profile, PROFILE_NAME } from '../config/schema.js';
import type { ProfileStore } from '../config/store.js';
import { isLoopbackHost } from '../config/url.js';
import { UsageError } from '../errors.js';

/** The profile name the printed command uses when --profile is not given. */
export const DEFAULT_LOCAL_PROFILE = 'local';

/** Where the server keeps its data: --data-dir, else $XDG_DATA_HOME/llmobs/server. */
export function dataDir(cwd: string, given: string | undefined, env: Record<string, string | undefined>): string {
  return resolve(cwd, given ?? join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'llmobs', 'server'));
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
export function otherAddresses(url: string, host: string): string[] {
  const wildcard = host === '0.0.0.0' ? 'IPv4' : host === '::' ? 'any' : undefined;
  if (!wildcard) return [];
  const port = new URL(url).port;
  return Object.values(networkInterfaces())
    .flat()
    .filter((address): address is NonNullable<typeof address> => address !== undefined && !address.internal && (wildcard === 'any' || address.family === 'IPv4'))
    .map((address) => `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${port}`)
    .slice(0, 4);
}

export function pointsHere(profile: Profile | undefined, url: string, keys: { publicKey: string; secretKey: string }): boolean {
  return profile?.baseUrl === url && profile.publicKey === keys.publicKey && profile.secretKey === keys.secretKey && !profile.apiKey;
}

/** A profile the local server may replace: one that points at a server on this machine. */
export function isLocalProfile(profile: Profile): boolean {
  if (!profile.baseUrl || profile.region) return false;
  try {
    return isLoopbackHost(new URL(profile.baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * Refuses `llmobs server --profile NAME` when NAME cannot be a profile's name or is the profile of
 * a server elsewhere. Checked before the server starts, so a refusal leaves nothing running and
 * nothing written.
 */
export function checkProfileToSave(store: ProfileStore, name: string): void {
  if (!PROFILE_NAME.test(name)) throw new UsageError(`--profile: "${name}" is not a valid profile name (letters, digits, ".", "_" or "-")`);
  const existing = store.get(name);
  if (existing && !isLocalProfile(existing)) {
    throw new UsageError(`profile "${name}" points at ${existing.baseUrl ?? `the ${existing.region} region`}, not at a server on this machine; it is left as it is`, {
      hint: `Pick another name for the local server, e.g. --profile ${DEFAULT_LOCAL_PROFILE}`,
    });
  }
}

export interface LocalProfile {
  name: string;
  /** Saved now (--profile NAME), pointing here and active. */
  saved: boolean;
  active: boolean;
  pointsHere: boolean;
  /** The profile the command would replace: one of that name that points elsewhere. */
  replaces: Profile | undefined;
  /** What makes the profile point here and active: nothing (null), profile use, or profile add --default. */
  command: string | null;
}

/** Saves the profile `save` names for the server at `url`, or says which command would make one point here. */
export function settleProfile(store: ProfileStore, save: string | undefined, url: string, keys: { publicKey: string; secretKey: string }): LocalProfile {
  const name = save ?? DEFAULT_LOCAL_PROFILE;
  const existing = store.get(name);
  if (save !== undefined) store.put(name, { baseUrl: url, publicKey: keys.publicKey, secretKey: keys.secretKey }, true);
  const saved = save !== undefined;
  const ready = saved || pointsHere(existing, url, keys);
  const active = store.activeName() === name;
  const replaces = existing !== undefined && !ready ? existing : undefined;
  const command = ready
    ? active
      ? null
      : `llmobs profile use ${name}`
    : `printf %s '${keys.secretKey}' | llmobs profile add ${name} --base-url ${url} --public-key ${keys.publicKey} --secret-key-stdin --default${replaces ? ' --force' : ''}`;
  return { name, saved, active, pointsHere: ready, replaces, command };
}
