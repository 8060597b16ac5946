// Which proxy a request to the server goes through, by the same variables (and precedence) the
// HTTP client gives undici's EnvHttpProxyAgent: HTTPS_PROXY for https (else HTTP_PROXY),
// HTTP_PROXY for http, and NO_PROXY exceptions. Pure, so `doctor` can say it without a request.

export interface ProxyChoice {
  /** The proxy URL with any password hidden, or null for a direct connection. */
  proxy: string | null;
  /** The variable it came from. */
  variable: string | null;
  /** Why the connection is direct, when a proxy is configured but not used. */
  bypassedBy: string | null;
  /** A proxy setting that cannot be used, e.g. not a URL. */
  problem: string | null;
}

function pick(env: Record<string, string | undefined>, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return { name, value };
  }
  return undefined;
}

/**
 * Hides the password in a proxy URL, and a user name given without one: such a proxy takes a
 * token as the user name (`http://TOKEN@proxy:8080`).
 */
export function redactProxy(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    else if (url.username) url.username = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return raw.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@').replace(/\/\/[^:/@]+@/, '//***@');
  }
}

/** Whether NO_PROXY exempts this host and port: `*`, host names, `.domain`/`*.domain` suffixes, optional `:port`. */
export function noProxyMatch(noProxy: string, hostname: string, port: string): string | null {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  for (const rawEntry of noProxy.split(/[\s,]+/)) {
    const entry = rawEntry.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return entry;
    const [pattern, entryPort] = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(entry)?.slice(1) ?? [entry, undefined];
    if (entryPort !== undefined && entryPort !== port) continue;
    const suffix = pattern!.replace(/^\*?\./, '');
    if (host === suffix || host.endsWith(`.${suffix}`)) return rawEntry.trim();
  }
  return null;
}

export function proxyFor(url: string, env: Record<string, string | undefined>): ProxyChoice {
  const target = new URL(url);
  const https = target.protocol === 'https:';
  const chosen = https ? (pick(env, 'HTTPS_PROXY', 'https_proxy') ?? pick(env, 'HTTP_PROXY', 'http_proxy')) : pick(env, 'HTTP_PROXY', 'http_proxy');
  if (!chosen) return { proxy: null, variable: null, bypassedBy: null, problem: null };
  const noProxy = pick(env, 'NO_PROXY', 'no_proxy');
  const port = target.port || (https ? '443' : '80');
  const match = noProxy ? noProxyMatch(noProxy.value, target.hostname, port) : null;
  if (match !== null) return { proxy: null, variable: chosen.name, bypassedBy: `${noProxy!.name} (${match})`, problem: null };
  let problem: string | null = null;
  try {
    const proxy = new URL(chosen.value);
    if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') problem = `$${chosen.name} must be an http:// or https:// URL, got ${proxy.protocol}`;
  } catch {
    problem = `$${chosen.name} is not a URL (${redactProxy(chosen.value)})`;
  }
  return { proxy: redactProxy(chosen.value), variable: chosen.name, bypassedBy: null, problem };
}

/**
 * What a failed connection means when it went through a proxy: a refused or unresolvable address
 * is the proxy's (the server is reached by the proxy, not by us), and an answer other than 200 to
 * the tunnel request is the proxy's refusal. Undefined for failures a proxy does not explain.
 */
export function proxyFailure(choice: ProxyChoice, code: string | undefined, message: string, target: string): { summary: string; fix: string } | undefined {
  if (!choice.proxy || !choice.variable) return undefined;
  const proxy = `the proxy ${choice.proxy} ($${choice.variable})`;
  const host = new URL(target).host;
  const direct = `or connect to ${host} directly: add it to NO_PROXY, or unset $${choice.variable}`;
  const answered = /Proxy response \((\d{3})\)/.exec(message)?.[1];
  if (answered) {
    const fix =
      answered === '407'
        ? `The proxy wants a user name and password: put them in $${choice.variable} (http://user:password@host:port), ${direct}.`
        : answered === '403'
          ? `The proxy does not let this machine reach ${host}: ask for it to be allowed, ${direct}.`
          : `The proxy could not reach ${host}: check the server's address and that the proxy can reach it, ${direct}.`;
    return { summary: `${proxy} answered ${answered} to the request to connect to ${host}`, fix };
  }
  switch (code) {
    case 'ECONNREFUSED':
      return { summary: `nothing listens at ${proxy}`, fix: `Check the proxy's address and port in $${choice.variable}, ${direct}.` };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { summary: `the host name of ${proxy} cannot be resolved (${code})`, fix: `Check the proxy's address in $${choice.variable}, ${direct}.` };
    default:
      return undefined;
  }
}
