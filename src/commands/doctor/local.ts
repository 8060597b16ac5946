// The checks of `llmobs doctor` that need no request: this machine, the profile file, the
// settings in effect, and the proxy that applies to the server.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { compareVersions } from '../../api/langfuse-version.js';
import { maskKey } from '../../config/mask.js';
import { REGION_NAMES } from '../../config/regions.js';
import { type ConfigView, describeConfig, type ResolvedConfig, sourceText } from '../../config/resolve.js';
import { isLoopbackHost } from '../../config/url.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { type Check, check } from './check.js';
import { proxyFor } from '../../api/proxy.js';

export const MIN_NODE = '20.18.1';

export function checkNode(version: string): Check {
  if (compareVersions(version, MIN_NODE) >= 0) return check('node', 'Node.js', 'ok', `v${version.replace(/^v/, '')}`);
  return check('node', 'Node.js', 'fail', `v${version.replace(/^v/, '')} is older than ${MIN_NODE}, which llmobs needs`, { fix: 'Install a supported Node.js LTS line, 22, 24 or 26 (e.g. with nvm install 24).' });
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
  if (notes.length) {
    // Keys from the environment in use, a profile left aside: the variables are what to unset.
    const fix = view.profile
      ? 'Unset the ignored variables, or select what you mean with --profile NAME or --base-url URL.'
      : `To use the profile instead, unset ${view.credentialsFrom ?? 'the key variables'}, or select it with --profile NAME.`;
    return { check: check('settings', title, 'warn', summary, { details, fix }), config };
  }
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

