// API key checks as the service's ApiAuthService does them (web/src/features/public-api/server/
// apiAuth.ts), texts included:
// - `Basic base64(publicKey:secretKey)`: project access, or organization access with the
//   organization's key (only the organization routes take it). The secret key authenticates; a public
//   key that does not match it is tolerated.
// - `Bearer <publicKey>`: the limited "scores" access, which only score routes accept.
// - `Bearer <secretKey>` is refused (401) unless the server runs with the specification's Bearer
//   scheme turned on (`bearerSecretKey`), which then grants project access.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord } from '../records.js';

export type AccessLevel = 'project' | 'scores' | 'organization';

export type AuthCheck = { ok: true; key: ApiKeyRecord; accessLevel: AccessLevel } | { ok: false; error: string };

export interface AuthOptions {
  /** Accept `Bearer <secret key>` as project access (the service specification's scheme). */
  bearerSecretKey?: boolean;
}

const HOST_HINT = ". Confirm that you've configured the correct host.";

/** `verifyAuthHeaderAndReturnScope`: which key and access level a header grants, or why none. */
export function verifyAuthHeader(header: string | undefined, keys: readonly ApiKeyRecord[], options: AuthOptions = {}, organizationKeys: readonly ApiKeyRecord[] = []): AuthCheck {
  if (!header) return { ok: false, error: 'No authorization header' };
  const fail = (reason: string): AuthCheck => ({ ok: false, error: reason + HOST_HINT });
  if (header.startsWith('Basic ')) {
    const value = header.split(' ')[1];
    if (!value) return fail('Invalid authorization header');
    let decoded: string;
    try {
      decoded = atob(value);
    } catch (error) {
      return fail((error as Error).message);
    }
    const [username, password] = decoded.split(':');
    if (!username || !password) return fail('Invalid authorization header');
    const key = keys.find((candidate) => same(candidate.secretKey, password));
    if (key) return { ok: true, key, accessLevel: 'project' };
    const organization = organizationKeys.find((candidate) => same(candidate.secretKey, password));
    return organization ? { ok: true, key: organization, accessLevel: 'organization' } : fail('Invalid credentials');
  }
  if (header.startsWith('Bearer ')) {
    const token = header.replace('Bearer ', '');
    if (options.bearerSecretKey) {
      const bySecret = keys.find((candidate) => same(candidate.secretKey, token));
      if (bySecret) return { ok: true, key: bySecret, accessLevel: 'project' };
    }
    const byPublic = keys.find((candidate) => same(candidate.publicKey, token));
    return byPublic ? { ok: true, key: byPublic, accessLevel: 'scores' } : fail('Invalid public key');
  }
  return { ok: false, error: 'Invalid authorization header' };
}

function same(a: string, b: string): boolean {
  const hash = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(hash(a), hash(b));
}
