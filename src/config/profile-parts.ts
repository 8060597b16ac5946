// What a profile holds, as the profile commands see it: the parts it still needs, keys that look
// swapped or pasted wrong, and a summary that shows no secret.
import { UsageError } from '../errors.js';
import { maskKey } from './mask.js';
import { REGION_NAMES } from './regions.js';
import { profileUrl } from './resolve.js';
import type { Profile } from './schema.js';

/** What the profile still needs to reach a server, as the flags that give it. */
export function missingParts(profile: Profile): string[] {
  const missing: string[] = [];
  if (!profile.region && !profile.baseUrl) missing.push(`a server (--region ${REGION_NAMES.join('|')} or --base-url)`);
  if (!profile.apiKey) {
    if (!profile.publicKey) missing.push('a public key (--public-key)');
    if (!profile.secretKey) missing.push('a secret key (--secret-key-stdin)');
  }
  return missing;
}

/** Catches swapped or pasted-wrong keys before they are stored; never echoes a secret. */
export function checkKeys(profile: Profile): void {
  if (profile.publicKey?.startsWith('sk-')) {
    throw new UsageError('the public key looks like a secret key (starts with sk-); pass the secret key on stdin with --secret-key-stdin');
  }
  if (profile.secretKey?.startsWith('pk-')) {
    throw new UsageError('the secret key read from stdin looks like a public key (starts with pk-)');
  }
  for (const [label, value] of [['public key', profile.publicKey], ['secret key', profile.secretKey], ['API key', profile.apiKey]] as const) {
    if (value !== undefined && /\s/.test(value)) throw new UsageError(`the ${label} contains whitespace`);
  }
}

export interface ProfileSummary {
  name: string;
  active: boolean;
  baseUrl: string | null;
  region: string | null;
  auth: 'bearer' | 'basic' | 'none';
  /** Masked (see maskKey). */
  publicKey: string | null;
}

export function summarise(name: string, profile: Profile, active: boolean): ProfileSummary {
  return {
    name,
    active,
    baseUrl: profileUrl(profile) ?? null,
    region: profile.region ?? null,
    auth: profile.apiKey ? 'bearer' : profile.secretKey ? 'basic' : 'none',
    publicKey: profile.publicKey ? maskKey(profile.publicKey) : null,
  };
}
