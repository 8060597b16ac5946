// The checks of `llmobs doctor`, in order: each one that cannot run because an earlier one failed
// is reported as skipped.
import { configDir } from '../../config/store.js';
import { REGIONS } from '../../config/regions.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { Check } from './check.js';
import { checkConfigFile, checkNode, checkProxy, checkSettings } from './local.js';
import { checkConnection, checkCredentials, checkRegion, type RegionProbe } from './remote.js';
import { checkWriteMode } from './write-mode.js';

export async function runChecks(ctx: Context, checkRegions: boolean | undefined): Promise<Check[]> {
  const checks: Check[] = [checkNode(process.versions.node), checkConfigFile(configDir(ctx.env))];
  const settings = await checkSettings(ctx);
  checks.push(settings.check);
  const config = settings.config;
  if (!config) return [...checks, ...skipped(['proxy', 'Proxy'], ['connection', 'Connection'], ['clock', 'Clock'], ['version', 'Server version'], ['credentials', 'Credentials'], ['region', 'Region'], ['write-mode', 'Write mode'])];
  checks.push(checkProxy(config.baseUrl, ctx.env));
  const open = await ctx.apiFor({ ...config, auth: { type: 'none' } });
  const connection = await checkConnection(ctx, open);
  checks.push(...connection.checks);
  if (!connection.reachable) return [...checks, ...skipped(['clock', 'Clock'], ['version', 'Server version'], ['credentials', 'Credentials'], ['region', 'Region'], ['write-mode', 'Write mode'])];
  if (config.auth.type === 'none') return [...checks, ...skipped(['credentials', 'Credentials'], ['region', 'Region']), await checkWriteMode(open, undefined, ctx.now())];
  const authed = await ctx.apiFor(config);
  const credentials = await checkCredentials(authed);
  checks.push(credentials.check);
  checks.push(await checkRegion(config, credentials.rejected, checkRegions, regionProbe(ctx, config)));
  checks.push(await checkWriteMode(open, credentials.rejected ? undefined : authed, ctx.now()));
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
