import { isRegion, REGION_LIST } from './regions.js';

// The profile file's shape, checked by hand rather than with zod: every command that talks to a
// server reads this file at start, and loading zod costs more than a bare Node start does. The
// checks are the ones a zod schema would make (test/unit/config/schema.test.ts compares the two).

export interface Profile {
  region?: string | undefined;
  baseUrl?: string | undefined;
  publicKey?: string | undefined;
  secretKey?: string | undefined;
  apiKey?: string | undefined;
}

export interface ConfigFile {
  activeProfile?: string | undefined;
  profiles: Record<string, Profile>;
}

export type ConfigFileResult = { ok: true; value: ConfigFile } | { ok: false; path: string[]; message: string };

const STRING_FIELDS = ['baseUrl', 'publicKey', 'secretKey', 'apiKey'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/**
 * The file's JSON as llmobs reads it: `profiles` (default none) and `activeProfile`, each profile
 * with its known fields only (others stay in the file, unread). A wrong type anywhere is an error
 * that names where.
 */
export function parseConfigFile(raw: unknown): ConfigFileResult {
  const fail = (path: string[], message: string): ConfigFileResult => ({ ok: false, path, message });
  if (!isObject(raw)) return fail([], `expected an object, got ${kind(raw)}`);
  const { activeProfile } = raw;
  if (activeProfile !== undefined && typeof activeProfile !== 'string') return fail(['activeProfile'], `expected a string, got ${kind(activeProfile)}`);
  const profiles: Array<[string, Profile]> = [];
  if (raw.profiles !== undefined) {
    if (!isObject(raw.profiles)) return fail(['profiles'], `expected an object, got ${kind(raw.profiles)}`);
    for (const [name, value] of Object.entries(raw.profiles)) {
      if (!isObject(value)) return fail(['profiles', name], `expected an object, got ${kind(value)}`);
      const profile: Profile = {};
      if (value.region !== undefined) {
        if (typeof value.region !== 'string' || !isRegion(value.region)) return fail(['profiles', name, 'region'], `expected ${REGION_LIST}, got ${typeof value.region === 'string' ? JSON.stringify(value.region) : kind(value.region)}`);
        profile.region = value.region;
      }
      for (const field of STRING_FIELDS) {
        const v = value[field];
        if (v === undefined) continue;
        if (typeof v !== 'string') return fail(['profiles', name, field], `expected a string, got ${kind(v)}`);
        profile[field] = v;
      }
      profiles.push([name, profile]);
    }
  }
  // fromEntries: a profile named "__proto__" stays an ordinary entry.
  const value: ConfigFile = activeProfile === undefined ? { profiles: Object.fromEntries(profiles) } : { activeProfile, profiles: Object.fromEntries(profiles) };
  return { ok: true, value };
}

/** Profile names appear in file names, shell completion and URLs of docs: keep them plain. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
