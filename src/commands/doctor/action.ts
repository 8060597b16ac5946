// `llmobs doctor`: checks everything between this machine and the server, says what is wrong and
// what to do, and exits 9 when a check fails (warnings alone exit 0). Requests are not retried
// and wait at most 15 s: a diagnosis wants the first answer, quickly.
import { configDir } from '../../config/store.js';
import { REGIONS } from '../../config/regions.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import type { Context } from '../../context.js';
import { ApiError, PreconditionError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import type { Check } from './check.js';
import { checkConfigFile, checkNode, checkProxy, checkSettings } from './local.js';
import { checkConnection, checkCredentials, checkRegion, type RegionProbe } from './remote.js';

const DOCTOR_TIMEOUT_MS = 15_000;

export default async function action(ctx: Context, { opts }: ActionInput): Promise<void> {
  // commander gives --check-regions true, --no-check-regions false, neither undefined.
  const checkRegions = typeof opts.checkRegions === 'boolean' ? opts.checkRegions : undefined;
  ctx.globals = { ...ctx.globals, retries: 0, timeout: Math.min(ctx.globals.timeout, DOCTOR_TIMEOUT_MS) };
  const checks = await runChecks(ctx, checkRegions);
  report(ctx, checks);
}

export async function runChecks(ctx: Context, checkRegions: boolean | undefined): Promise<Check[]> {
  const checks: Check[] = [checkNode(process.versions.node), checkConfigFile(configDir(ctx.env))];
  const settings = await checkSettings(ctx);
  checks.push(settings.check);
  const config = settings.config;
  if (!config) return [...checks, ...skipped(['proxy', 'Proxy'], ['connection', 'Connection'], ['clock', 'Clock'], ['version', 'Server version'], ['credentials', 'Credentials'], ['region', 'Region'])];
  checks.push(checkProxy(config.baseUrl, ctx.env));
  const open = await ctx.apiFor({ ...config, auth: { type: 'none' } });
  const connection = await checkConnection(ctx, open);
  checks.push(...connection.checks);
  if (!connection.reachable) return [...checks, ...skipped(['clock', 'Clock'], ['version', 'Server version'], ['credentials', 'Credentials'], ['region', 'Region'])];
  if (config.auth.type === 'none') return [...checks, ...skipped(['credentials', 'Credentials'], ['region', 'Region'])];
  const credentials = await checkCredentials(await ctx.apiFor(config));
  checks.push(credentials.check);
  checks.push(await checkRegion(config, credentials.rejected, checkRegions, regionProbe(ctx, config)));
  return checks;
}

function skipped(...items: Array<[string, string]>): Check[] {
  return items.map(([id, title]) => ({ id, title, status: 'skip', summary: 'not checked: an earlier check failed', details: [], fix: null }));
}

/** Tries the key on another region's host: accepted, rejected, or not reached. */
function regionProbe(ctx: Context, config: ResolvedConfig): RegionProbe {
  return async (region) => {
    const client = await ctx.apiFor({ ...config, baseUrl: REGIONS[region].url, baseUrlSource: { kind: 'default', name: `the ${region} region, tried by doctor` }, notes: [] });
    try {
      await client.request('GET', '/api/public/projects');
      return 'accepted';
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return 'rejected';
      return 'unreachable';
    }
  };
}

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' } as const;

function report(ctx: Context, checks: Check[]): void {
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  if (ctx.globals.json) {
    ctx.out.printJson({ ok: failed === 0, problems: failed, warnings: warned, checks });
  } else {
    const { c } = ctx.out;
    const width = Math.max(...checks.map((check) => check.title.length));
    const paint = { ok: c.green, warn: c.yellow, fail: c.red, skip: c.dim } as const;
    for (const check of checks) {
      ctx.out.line(`${paint[check.status](MARK[check.status])} ${c.bold(check.title.padEnd(width))}  ${check.status === 'skip' ? c.dim(check.summary) : check.summary}`);
      for (const detail of check.details) ctx.out.line(`  ${' '.repeat(width)}  ${c.dim(detail)}`);
      if (check.fix && check.status !== 'ok') {
        const [first, ...rest] = check.fix.split('\n');
        ctx.out.line(`  ${' '.repeat(width)}  ${paint[check.status]('fix:')} ${first}`);
        for (const line of rest) ctx.out.line(`  ${' '.repeat(width)}       ${line}`);
      }
    }
    ctx.out.line();
    ctx.out.line(failed === 0 && warned === 0 ? 'Everything looks right.' : `${plural(failed, 'problem')}, ${plural(warned, 'warning')}.`);
  }
  if (failed > 0) {
    const first = checks.find((check) => check.status === 'fail')!;
    throw new PreconditionError(`doctor found ${plural(failed, 'problem')}: ${first.title.toLowerCase()}: ${first.summary}`, { hint: first.fix ?? undefined });
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
