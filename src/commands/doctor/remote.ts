// The checks of `llmobs doctor` that ask the server: connection, clock, version, the key, and the
// Langfuse Cloud region a rejected key belongs to.
import type { ApiClient } from '../../api/client.js';
import { compareVersions, MODEL_PUT_SINCE, supportsModelPut } from '../../api/langfuse-version.js';
import { getHealth, getProjects } from '../../api/projects.js';
import { REGION_NAMES, REGIONS, type Region, regionForUrl } from '../../config/regions.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import { isLoopbackHost } from '../../config/url.js';
import type { Context } from '../../context.js';
import { ApiError, CliError, NetworkError } from '../../errors.js';
import { type Check, check } from './check.js';
import { proxyFailure, proxyFor } from '../../api/proxy.js';

/** The first error code in an error's cause chain (ENOTFOUND, ECONNREFUSED, CERT_HAS_EXPIRED ...). */
function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code) && code !== 'UND_ERR_REQ_ABORTED') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorChainText(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; depth < 5 && current instanceof Error; depth++, current = current.cause) parts.push(current.message);
  return parts.join(': ');
}

function connectionFix(error: unknown, url: string, env: Record<string, string | undefined>): { summary: string; fix: string } {
  const host = new URL(url).host;
  const choice = proxyFor(url, env);
  const proxy = choice.proxy;
  const code = causeCode(error);
  const viaProxy = proxyFailure(choice, code, errorChainText(error), url);
  if (viaProxy) return viaProxy;
  if (error instanceof NetworkError && error.code === 'timeout') {
    return { summary: `no answer from ${host} in time`, fix: `Check that ${url} is the right address and reachable from here${proxy ? ` through ${proxy}` : ''}; raise the limit with --timeout <ms>.` };
  }
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return {
        summary: `the host name ${new URL(url).hostname} cannot be resolved (${code})`,
        fix: `Check the address for typos (Langfuse Cloud: ${REGION_NAMES.map((r) => new URL(REGIONS[r].url).host).join(', ')}), your DNS, and whether this network needs a proxy (HTTPS_PROXY).`,
      };
    case 'ECONNREFUSED':
      return { summary: `nothing listens at ${host} (connection refused)`, fix: isLoopbackHost(new URL(url).hostname) ? 'Start the server (llmobs server), or fix the port in the address.' : 'Check the address and port, and that the server is running.' };
    case 'ECONNRESET':
    case 'EPIPE':
      return { summary: `the connection to ${host} was cut (${code})`, fix: `A firewall or proxy may be in the way${proxy ? ` (${proxy})` : ''}; try again, or check HTTPS_PROXY and NO_PROXY.` };
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return {
        summary: `the TLS certificate of ${host} was not accepted (${code})`,
        fix: 'Behind a company proxy that inspects TLS, point NODE_EXTRA_CA_CERTS at its CA certificate; a self-hosted server needs a certificate for this host name. Also check this machine\'s clock.',
      };
    default:
      return { summary: `${host} cannot be reached: ${error instanceof Error ? error.message : String(error)}`, fix: `Check the network, proxy settings (HTTPS_PROXY, NO_PROXY) and the server.` };
  }
}

export interface ConnectionOutcome {
  checks: Check[];
  reachable: boolean;
}

/** Reaches the server's health endpoint: connectivity, then its clock and its version. */
export async function checkConnection(ctx: Context, client: ApiClient): Promise<ConnectionOutcome> {
  const before = ctx.now().getTime();
  let response;
  try {
    response = await getHealth(client);
  } catch (error) {
    if (error instanceof ApiError && error.status > 0) {
      const notLangfuse = error.code === 'bad_response' || /instead of JSON/.test(error.message);
      return {
        checks: [
          check('connection', 'Connection', 'fail', notLangfuse ? `${client.baseUrl} answers, but not as a Langfuse API does: ${error.message}` : error.message, {
            fix: notLangfuse ? 'Use the server\'s address without /api/public (e.g. https://cloud.langfuse.com); a proxy or a web page may be answering instead.' : (error.hint ?? null),
          }),
        ],
        reachable: false,
      };
    }
    if (!(error instanceof CliError)) throw error;
    const { summary, fix } = connectionFix(error, client.baseUrl, ctx.env);
    return { checks: [check('connection', 'Connection', 'fail', summary, { fix })], reachable: false };
  }
  const after = ctx.now().getTime();
  const { status, version } = response.health;
  const checks = [
    check('connection', 'Connection', status === 'OK' ? 'ok' : 'warn', `${client.baseUrl} answers in ${response.durationMs} ms (health: ${status})`, {
      fix: status === 'OK' ? null : 'The server reports a problem with itself; see its status page or logs.',
    }),
    clockCheck(response.headers['date'], before, after),
    versionCheck(version),
  ];
  return { checks, reachable: true };
}

/** Compares the server's Date header with this machine's clock, allowing for the round trip. */
export function clockCheck(header: string | string[] | undefined, before: number, after: number): Check {
  const title = 'Clock';
  const text = Array.isArray(header) ? header[0] : header;
  const server = text === undefined ? Number.NaN : Date.parse(text);
  if (Number.isNaN(server)) return check('clock', title, 'skip', 'the server sent no Date header to compare with');
  // The header has whole seconds: the server's clock read between server and server + 1 s,
  // sometime between sending and receiving.
  const local = (before + after) / 2;
  const slack = (after - before) / 2 + 1000;
  const skew = server + 500 - local;
  const beyond = Math.max(0, Math.abs(skew) - slack);
  const amount = duration(Math.abs(skew));
  const fix = 'Turn on time sync (Linux: timedatectl set-ntp true; macOS: System Settings > General > Date & Time; Windows: w32tm /resync). A wrong clock puts wrong times on what you record and can make TLS certificates look invalid.';
  if (beyond <= 60_000) return check('clock', title, 'ok', `in step with the server (${beyond === 0 ? `within ${duration(slack)}` : `${amount} apart`})`);
  const direction = skew > 0 ? 'behind' : 'ahead of';
  return check('clock', title, beyond > 300_000 ? 'fail' : 'warn', `this machine's clock is ${amount} ${direction} the server's`, { fix });
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function versionCheck(version: string | undefined): Check {
  const title = 'Server version';
  if (!version) return check('version', title, 'skip', 'not reported by the server');
  const put = supportsModelPut(version);
  if (put === undefined) return check('version', title, 'ok', `${version} (not a version number llmobs can compare)`);
  if (compareVersions(version, '3.0.0') < 0) {
    return check('version', title, 'warn', `Langfuse ${version}: older than 3.0, which llmobs is built against`, { fix: 'Upgrade the server; some commands may fail on it.' });
  }
  if (!put) return check('version', title, 'ok', `Langfuse ${version}: models update needs --recreate (in-place update arrived in ${MODEL_PUT_SINCE})`);
  return check('version', title, 'ok', `Langfuse ${version}`);
}

export interface CredentialsOutcome {
  check: Check;
  rejected: boolean;
}

/** Asks the server who the key is: a project answer, or why not. */
export async function checkCredentials(client: ApiClient): Promise<CredentialsOutcome> {
  const title = 'Credentials';
  try {
    const project = (await getProjects(client)).projects[0];
    if (!project) {
      return { check: check('credentials', title, 'fail', 'accepted, but the server returned no project for them', { fix: 'Project commands need a project API key; create one in the project\'s Settings > API Keys.' }), rejected: false };
    }
    const org = project.organization ? ` in organization "${project.organization.name}"` : '';
    return { check: check('credentials', title, 'ok', `accepted: project "${project.name}" (${project.id})${org}`), rejected: false };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      const who = client.config.credentialsFrom ?? 'the key';
      const summary = error.status === 401 ? `${client.baseUrl} rejects the key from ${who} (401)` : `the key from ${who} is not allowed to read the project (403)`;
      return { check: check('credentials', title, 'fail', summary, { details: error.serverMessage ? [`server: ${error.serverMessage}`] : [], fix: error.status === 401 ? 'See the region check below; otherwise the key was revoked or mistyped: create a new one in the project\'s Settings > API Keys.' : (error.hint ?? null) }), rejected: error.status === 401 };
    }
    if (!(error instanceof CliError)) throw error;
    return { check: check('credentials', title, 'fail', error.message, { fix: error.hint ?? null }), rejected: false };
  }
}

export type RegionProbe = (region: Region) => Promise<'accepted' | 'rejected' | 'unreachable'>;

/**
 * After a 401, which Langfuse Cloud region the key belongs to. Probing sends the key to the other
 * regions' hosts: done on its own only when the key was sent to a Langfuse Cloud host anyway (the
 * same operator), else only when asked (--check-regions).
 */
export async function checkRegion(config: ResolvedConfig, rejected: boolean, ask: boolean | undefined, probe: RegionProbe): Promise<Check> {
  const title = 'Region';
  const configured = regionForUrl(config.baseUrl);
  const label = configured ? `${REGIONS[configured].label} (${REGIONS[configured].url})` : config.baseUrl;
  if (!rejected) return check('region', title, configured ? 'ok' : 'skip', configured ? `${REGIONS[configured].label}: the key belongs here` : 'a self-hosted or other server: no region to check');
  if (ask === false || (ask === undefined && !configured)) {
    return check('region', title, 'skip', configured ? 'not checked (--no-check-regions)' : 'not checked: the server is not Langfuse Cloud, and trying the key there would send it to another operator', {
      fix: configured ? null : 'If the key is a Langfuse Cloud key, find its region with: llmobs doctor --check-regions',
    });
  }
  const others = REGION_NAMES.filter((region) => region !== configured);
  const answers = await Promise.all(others.map(async (region) => [region, await probe(region)] as const));
  const home = answers.find(([, answer]) => answer === 'accepted')?.[0];
  if (!home) {
    const unreachable = answers.filter(([, answer]) => answer === 'unreachable').map(([region]) => region);
    return check('region', title, 'fail', `no Langfuse Cloud region accepts the key${unreachable.length ? ` (not reached: ${unreachable.join(', ')})` : ''}`, {
      fix: 'The key was revoked, mistyped, or belongs to a self-hosted server: copy it again from the project\'s Settings > API Keys.',
    });
  }
  const url = REGIONS[home].url;
  const fix = config.profile
    ? `Point the profile at ${REGIONS[home].label}: printf %s "$SECRET" | llmobs profile add ${config.profile.name} --force --region ${home} --public-key pk-lf-... --secret-key-stdin\n(or for one command: --base-url ${url})`
    : config.baseUrlSource.kind === 'env'
      ? `Set $${config.baseUrlSource.name}=${url}`
      : `Set LANGFUSE_HOST=${url} (or pass --base-url ${url})`;
  return check('region', title, 'fail', `the key belongs to ${REGIONS[home].label} (${url}), not to ${label}`, { fix });
}
