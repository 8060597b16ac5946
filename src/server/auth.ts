// Basic auth with the project's key pair (what Langfuse accepts), plus Bearer with the secret key
// (the scheme the service specification shows). The secret key authenticates; as on a Langfuse
// server, a public key that does not match it is tolerated.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord } from './state.js';

/** Routes answer auth failures in different shapes, as the real server does. */
export type AuthFlavor = 'project' | 'prompts' | 'projects';

export type AuthResult = { ok: true; key: ApiKeyRecord } | { ok: false; status: number; body: Record<string, string> };

export function authenticate(header: string | undefined, keys: ApiKeyRecord[], flavor: AuthFlavor): AuthResult {
  const fail = (status: number, message: string, errorClass: string): AuthResult => ({
    ok: false,
    status,
    body: flavor === 'prompts' ? { message, error: errorClass } : { message },
  });
  if (!header) return fail(401, 'No authorization header', 'UnauthorizedError');
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const token = rest.join(' ');
  if (scheme.toLowerCase() === 'basic' && token) {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return fail(401, 'Invalid authorization header', 'UnauthorizedError');
    const secret = decoded.slice(colon + 1);
    const key = keys.find((candidate) => same(candidate.secretKey, secret));
    return key ? { ok: true, key } : fail(401, "Invalid credentials. Confirm that you've configured the correct host.", 'UnauthorizedError');
  }
  if (scheme.toLowerCase() === 'bearer' && token) {
    const bySecret = keys.find((candidate) => same(candidate.secretKey, token));
    if (bySecret) return { ok: true, key: bySecret };
    if (keys.some((candidate) => same(candidate.publicKey, token))) {
      // A public key alone only grants score ingestion on a Langfuse server.
      if (flavor === 'projects') return fail(403, 'Invalid API key. Are you using an organization key?', 'ForbiddenError');
      if (flavor === 'prompts') return fail(403, 'Access denied - need to use basic auth with secret key to GET prompts', 'ForbiddenError');
      return fail(403, 'Access denied - insufficient permissions for this endpoint', 'ForbiddenError');
    }
    return fail(401, "Invalid credentials. Confirm that you've configured the correct host.", 'UnauthorizedError');
  }
  return fail(401, 'Invalid authorization header', 'UnauthorizedError');
}

function same(a: string, b: string): boolean {
  const hash = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(hash(a), hash(b));
}
