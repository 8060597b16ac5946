// What stands between the web UI and anyone but the person who started the server: a one-time
// token in the printed URL is exchanged for a session cookie (HttpOnly, SameSite=Strict); nothing
// is served without it. The Host header must name this server (a page of another site that
// resolves its own name to 127.0.0.1 sends its own name: DNS rebinding), and a request that
// changes something must also come from the UI's own origin.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';

/** No inline script or style, nothing from elsewhere, no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const SESSION_LIMIT = 100;

export class Sessions {
  /** The token of the printed URL; undefined once it has been used. */
  private token: string | undefined = randomBytes(24).toString('base64url');
  private readonly ids = new Set<string>();
  /** Per port: cookies are shared by every port of a host, and two servers must not log each other out. */
  readonly cookieName: string;

  constructor(port: number) {
    this.cookieName = `llmobs_ui_${port}`;
  }

  /** The token for the start line; read once, by the server that prints it. */
  get startToken(): string {
    return this.token ?? '';
  }

  /** A new session id for the token, or undefined when it is wrong or already used. */
  redeem(token: string): string | undefined {
    if (this.token === undefined || !sameSecret(token, this.token)) return undefined;
    this.token = undefined;
    const id = randomBytes(32).toString('base64url');
    // A bounded set: redeeming is one-time, so this only grows with new tokens.
    if (this.ids.size >= SESSION_LIMIT) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(id);
    return id;
  }

  cookie(id: string): string {
    return `${this.cookieName}=${id}; HttpOnly; SameSite=Strict; Path=/`;
  }

  has(req: IncomingMessage): boolean {
    const id = readCookie(req.headers.cookie, this.cookieName);
    return id !== undefined && [...this.ids].some((known) => sameSecret(id, known));
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The Host values this server answers to: the loopback names, the address it listens on, and for
 * a wildcard listener the machine's own addresses.
 */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0' || bare === '::') {
    for (const address of Object.values(networkInterfaces()).flat()) {
      if (address) names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
    }
  } else {
    names.add(bare.includes(':') ? `[${bare}]` : bare);
  }
  return new Set([...names].map((name) => `${name.toLowerCase()}:${port}`));
}

/** The request's Host, when it is one of `allowed`. */
export function checkedHost(req: IncomingMessage, allowed: ReadonlySet<string>): string | undefined {
  const host = req.headers.host?.toLowerCase();
  return host !== undefined && allowed.has(host) ? host : undefined;
}

/**
 * A request that changes something must come from a page of this origin: its Origin header is
 * this server's, and the browser's own Sec-Fetch-Site (when sent) says same-origin.
 */
export function sameOrigin(req: IncomingMessage, host: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return req.headers.origin === `http://${host}`;
}
