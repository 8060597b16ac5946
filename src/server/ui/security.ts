// What stands between the web UI and anyone but the person who started the server: a one-time
// token in the printed URL is exchanged for a session cookie (HttpOnly, SameSite=Strict); nothing
// is served without it. Another browser gets a link of its own from the running server, asked
// for with the project's secret key (POST /api/llmobs/ui-link, `llmobs server link`); such a link
// also works once, and only for a few minutes. The Host header must name this server (a page of
// another site that resolves its own name to 127.0.0.1 sends its own name: DNS rebinding), and a
// request that changes something must also come from the UI's own origin.
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
/** How long a link asked for while the server runs (`llmobs server link`) stays good, unused. */
export const LINK_LIFETIME_MS = 10 * 60_000;
/** Links asked for and not yet used, at most: asking again drops the oldest. */
const PENDING_LIMIT = 20;

export class Sessions {
  /** The token of the printed URL; undefined once it has been used. */
  private token: string | undefined = newToken();
  /** Tokens of links asked for later, with when each stops working. */
  private readonly issued = new Map<string, number>();
  private readonly ids = new Set<string>();
  /** Per port: cookies are shared by every port of a host, and two servers must not log each other out. */
  readonly cookieName: string;

  constructor(
    port: number,
    private readonly now: () => number = Date.now,
  ) {
    this.cookieName = `llmobs_ui_${port}`;
  }

  /** The token for the start line; read once, by the server that prints it. */
  get startToken(): string {
    return this.token ?? '';
  }

  /** A new one-time token, good for LINK_LIFETIME_MS: a link for another browser. */
  issue(): string {
    this.dropExpired();
    if (this.issued.size >= PENDING_LIMIT) this.issued.delete(this.issued.keys().next().value!);
    const token = newToken();
    this.issued.set(token, this.now() + LINK_LIFETIME_MS);
    return token;
  }

  /** A new session id for the token, or undefined when it is wrong, used or expired. */
  redeem(token: string): string | undefined {
    this.dropExpired();
    if (this.token !== undefined && sameSecret(token, this.token)) this.token = undefined;
    else {
      const issued = [...this.issued.keys()].find((known) => sameSecret(token, known));
      if (issued === undefined) return undefined;
      this.issued.delete(issued);
    }
    const id = randomBytes(32).toString('base64url');
    // A bounded set: redeeming is one-time, so this only grows with new tokens.
    if (this.ids.size >= SESSION_LIMIT) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(id);
    return id;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [token, until] of this.issued) if (until <= now) this.issued.delete(token);
  }

  cookie(id: string): string {
    return `${this.cookieName}=${id}; HttpOnly; SameSite=Strict; Path=/`;
  }

  has(req: IncomingMessage): boolean {
    const id = readCookie(req.headers.cookie, this.cookieName);
    return id !== undefined && [...this.ids].some((known) => sameSecret(id, known));
  }
}

function newToken(): string {
  return randomBytes(24).toString('base64url');
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
