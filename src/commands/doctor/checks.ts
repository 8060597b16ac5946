// The checks of `llmobs doctor`, in the order a connection is made: this machine, the profile
// file, the settings in effect, the proxy, the server, its clock and version, the key, and the
// region the key belongs to. Each says what it found and, when something is wrong, what to do.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { compareVersions, MODEL_PUT_SINCE, supportsModelPut } from '../../api/langfuse-version.js';
import { HealthSchema, ProjectsResponseSchema } from '../../api/schemas/projects.js';
import { maskKey } from '../../config/mask.js';
import { REGION_NAMES, REGIONS, type Region, regionForUrl } from '../../config/regions.js';
import { type ConfigView, describeConfig, type ResolvedConfig, sourceText } from '../../config/resolve.js';
import { isLoopbackHost } from '../../config/url.js';
import type { Context } from '../../context.js';
import { ApiError, CliError, NetworkError } from '../../errors.js';
import { proxyFor } from './proxy.js';

export type Status = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  id: string;
  title: string;
  status: Status;
  summary: string;
  details: string[];
  /** What to do about it (warn and fail only). */
  fix: string | null;
}

const check = (id: string, title: string, status: Status, summary: string, extra: { details?: string[]; fix?: string | null } = {}): Check => ({
  id,
  title,
  status,
  summary,
  details: extra.details ?? [],
  fix: extra.fix ?? null,
});

export const MIN_NODE = '20.18.1';

export function checkNode(version: string): Check {
  if (compareVersions(version, MIN_NODE) >= 0) return check('node', 'Node.js', 'ok', `v${version.replace(/^v/, '')}`);
  return check('node', 'Node.js', 'fail', `v${version.replace(/^v/, '')} is older than ${MIN_NODE}, which llmobs needs`, { fix: 'Install Node.js 20.18.1 or newer (e.g. with nvm install 20).' });
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Permissions of the profile file and its directory: keys must be readable by this user only. */
export function checkConfigFile(dir: string, platform: string = process.platform, uid: number | undefined = process.getuid?.()): Check {
  const title = 'Profile file';
  const file = join(dir, 'config.json');
  const dirStat = statOf(dir);
  if (!dirStat) return check('config-file', title, 'ok', `none yet (${file} is created by llmobs profile add)`);
  if (platform === 'win32') return check('config-file', title, 'skip', `${file} (permissions are not checked on Windows)`);
  const problems: Array<{ status: 'warn' | 'fail'; text: string; fix: string }> = [];
  if (dirStat.isSymbolicLink()) {
    problems.push({ status: 'warn', text: `${dir} is a symbolic link to ${safeRealpath(dir)}`, fix: `Point LLMOBS_CONFIG_DIR at a real directory, or replace the link: mkdir -m 700 ${dir}` });
  } else if (dirStat.mode & 0o022) {
    problems.push({ status: 'fail', text: `others can write to ${dir} (mode ${octal(dirStat.mode)}): they could replace the profile file`, fix: `chmod 700 ${dir}` });
  } else if (dirStat.mode & 0o077) {
    problems.push({ status: 'warn', text: `others can look into ${dir} (mode ${octal(dirStat.mode)})`, fix: `chmod 700 ${dir}` });
  }
  if (uid !== undefined && dirStat.uid !== uid) problems.push({ status: 'warn', text: `${dir} belongs to another user (uid ${dirStat.uid})`, fix: `Use your own directory (LLMOBS_CONFIG_DIR), or: sudo chown -R $(id -u) ${dir}` });
  const fileStat = statOf(file);
  if (fileStat?.isSymbolicLink()) {
    problems.push({ status: 'warn', text: `${file} is a symbolic link to ${safeRealpath(file)}`, fix: `Replace the link with the file itself: cp --remove-destination "$(readlink -f ${file})" ${file}` });
  } else if (fileStat && fileStat.mode & 0o077) {
    problems.push({ status: 'fail', text: `others can read ${file} (mode ${octal(fileStat.mode)}), and it holds secret keys`, fix: `chmod 600 ${file}; then consider the keys in it exposed and rotate them in Langfuse (Settings > API Keys)` });
  }
  if (fileStat && uid !== undefined && fileStat.uid !== uid) problems.push({ status: 'warn', text: `${file} belongs to another user (uid ${fileStat.uid})`, fix: `sudo chown $(id -u) ${file}` });
  const modes = `${fileStat ? `file ${octal(fileStat.mode)}, ` : 'no file yet, '}directory ${octal(dirStat.mode)}`;
  if (problems.length === 0) return check('config-file', title, 'ok', `${fileStat ? file : dir} (${modes}: only you can read it)`);
  const worst = problems.some((p) => p.status === 'fail') ? 'fail' : 'warn';
  return check('config-file', title, worst, problems[0]!.text, { details: problems.slice(1).map((p) => p.text), fix: problems.map((p) => p.fix).join('\n') });
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return '(a missing target)';
  }
}

export interface SettingsOutcome {
  check: Check;
  /** The settings to connect with, when there is a server to connect to. */
  config: ResolvedConfig | undefined;
}

/** Which profile or variables are in effect, and whether they can be used. */
export async function checkSettings(ctx: Context): Promise<SettingsOutcome> {
  const title = 'Settings';
  let view: ConfigView;
  try {
    view = describeConfig({ globals: ctx.globals, env: ctx.env, store: await ctx.profiles() });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { check: check('settings', title, 'fail', error.message, { fix: error.hint ?? null }), config: undefined };
  }
  const notes = view.notes.map((note) => `note: ${note}`);
  if (view.problem) return { check: check('settings', title, 'fail', view.problem.message, { details: notes, fix: view.problem.hint ?? null }), config: undefined };
  if (!view.baseUrl || !view.baseUrlSource) {
    return {
      check: check('settings', title, 'fail', 'no server configured', { details: notes, fix: `Add a profile: llmobs profile add <name> --region ${REGION_NAMES.join('|')} (or --base-url URL for a self-hosted server)` }),
      config: undefined,
    };
  }
  const { publicKey, secretKey, apiKey } = view.credentials;
  const auth: ResolvedConfig['auth'] = publicKey && secretKey ? { type: 'basic', publicKey, secretKey } : apiKey ? { type: 'bearer', apiKey } : { type: 'none' };
  if (auth.type === 'basic') ctx.addSecret(auth.secretKey);
  if (auth.type === 'bearer') ctx.addSecret(auth.apiKey);
  const config: ResolvedConfig = { profile: view.profile, baseUrl: view.baseUrl, baseUrlSource: view.baseUrlSource, auth, keySources: view.keySources, credentialsFrom: view.credentialsFrom, notes: view.notes };
  const from = view.profile ? `profile "${view.profile.name}" (${sourceText(view.profile.source)})` : (view.credentialsFrom ?? 'no profile, no keys');
  const key = auth.type === 'basic' ? `key ${maskKey(auth.publicKey)}` : auth.type === 'bearer' ? `Bearer key ${maskKey(auth.apiKey)}` : 'no key';
  const summary = `${from}: ${view.baseUrl} (${sourceText(view.baseUrlSource)}), ${key}`;
  const details = [...notes];
  const url = new URL(view.baseUrl);
  if (auth.type === 'none') {
    const fix = view.profile
      ? `Re-add the profile with its keys: printf %s "$SECRET" | llmobs profile add ${view.profile.name} --force --base-url ${view.baseUrl} --public-key pk-lf-... --secret-key-stdin`
      : 'Set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY, or add a profile: llmobs profile add <name>';
    return { check: check('settings', title, 'fail', `${summary}: no complete key pair`, { details, fix }), config };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { check: check('settings', title, 'warn', `${summary}: keys would travel over plain http to another machine`, { details, fix: 'Use the server\'s https:// address.' }), config };
  }
  if (auth.type === 'bearer') {
    return { check: check('settings', title, 'warn', `${summary}: Langfuse servers expect the key pair (Basic auth), not a Bearer key`, { details, fix: 'Add the project\'s key pair: llmobs profile add <name> --public-key pk-lf-... --secret-key-stdin' }), config };
  }
  if (notes.length) return { check: check('settings', title, 'warn', summary, { details, fix: 'Unset the ignored variables, or select what you mean with --profile NAME or --base-url URL.' }), config };
  return { check: check('settings', title, 'ok', summary), config };
}

export function checkProxy(url: string, env: Record<string, string | undefined>): Check {
  const title = 'Proxy';
  const choice = proxyFor(url, env);
  if (choice.problem) return check('proxy', title, 'fail', choice.problem, { fix: `Set $${choice.variable} to the proxy's address, e.g. http://proxy.example.com:8080, or unset it.` });
  if (choice.bypassedBy) return check('proxy', title, 'ok', `direct connection: ${choice.bypassedBy} exempts ${new URL(url).host} from $${choice.variable}`);
  if (choice.proxy) return check('proxy', title, 'ok', `through ${choice.proxy} ($${choice.variable})`);
  const set = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].filter((name) => env[name]);
  if (set.length) return check('proxy', title, 'ok', `direct connection: $${set[0]} is for https:// servers, and ${new URL(url).host} is plain http (HTTP_PROXY would apply)`);
  return check('proxy', title, 'ok', 'none (direct connection; HTTPS_PROXY, HTTP_PROXY and NO_PROXY are not set)');
}

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

function connectionFix(error: unknown, url: string, env: Record<string, string | undefined>): { summary: string; fix: string } {
  const host = new URL(url).host;
  const proxy = proxyFor(url, env).proxy;
  const code = causeCode(error);
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
    response = await client.request('GET', '/api/public/health', { schema: HealthSchema });
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
  const { status, version } = response.data;
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
    const response = await client.request('GET', '/api/public/projects', { schema: ProjectsResponseSchema });
    const project = response.data.data[0];
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
