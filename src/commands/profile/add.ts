// llmobs profile add: add or replace a profile.
import type { Profile } from '../../config/schema.js';
import type { Region } from '../../config/regions.js';
import { ConfigError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'add',
  summary: 'add or replace a profile; asks for what is missing on a terminal. Keys are never taken as arguments: pass secrets on stdin',
  args: [
    { name: '<name>', help: 'profile name' },
  ],
  flags: [
    { flags: '--region <region>', help: 'Langfuse Cloud region: eu (cloud.langfuse.com), us (us.cloud.langfuse.com), jp (jp.cloud.langfuse.com), hipaa (hipaa.cloud.langfuse.com); for other servers use --base-url', choices: ['eu', 'us', 'jp', 'hipaa'] },
    { flags: '--public-key <key>', help: 'project public key (pk-lf-...)' },
    { flags: '--secret-key-stdin', help: 'read the project secret key (sk-lf-...) from stdin' },
    { flags: '--api-key-stdin', help: 'read a Bearer API key from stdin instead of a key pair' },
    { flags: '--default', help: 'make it the active profile' },
    { flags: '--force', help: 'replace a profile of the same name' },
  ],
  examples: [
    '# On a terminal: asks for the keys (the secret is masked)',
    'llmobs profile add prod-us --region us',
    '# In a script: the secret on stdin, never as an argument',
    'printf %s "$LANGFUSE_SECRET_KEY" | llmobs profile add ci --region eu --public-key pk-lf-123 --secret-key-stdin --default',
    '# A self-hosted server',
    'llmobs profile add local --base-url http://localhost:3000 --public-key pk-lf-123 --secret-key-stdin < secret.txt',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { readSecret }, { REGION_LIST, REGION_NAMES, REGIONS, regionForUrl }, { PROFILE_NAME }, { normaliseBaseUrl }, { checkKeys, missingParts, summarise }, { askMissing }] = await Promise.all([import('zod'), import('../../io/stdin.js'), import('../../config/regions.js'), import('../../config/schema.js'), import('../../config/url.js'), import('../../config/profile-parts.js'), import('./ask.js')]);
    const opts = parseOptions(
      z.object({
        name: z.string().regex(PROFILE_NAME, 'use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)'),
        region: z.enum(REGION_NAMES as [Region, ...Region[]], { message: `must be ${REGION_LIST}` }).optional(),
        publicKey: z.string().min(1).optional(),
        secretKeyStdin: z.boolean().default(false),
        apiKeyStdin: z.boolean().default(false),
        default: z.boolean().default(false),
        force: z.boolean().default(false),
      }),
      { ...given, name: args[0] },
    );
    if (opts.secretKeyStdin && opts.apiKeyStdin) throw new UsageError('use either --secret-key-stdin or --api-key-stdin, not both');
    if (opts.region && ctx.globals.baseUrl) throw new UsageError('use either --region or --base-url, not both');
    if (opts.apiKeyStdin && opts.publicKey) throw new UsageError('--api-key-stdin replaces the key pair: drop --public-key');

    const store = await ctx.profiles();
    const existing = store.get(opts.name);
    if (existing && !opts.force) {
      throw new UsageError(`profile "${opts.name}" already exists`, { hint: 'Pass --force to replace it, or pick another name.' });
    }

    const profile: Profile = {};
    if (opts.region) profile.region = opts.region;
    else if (ctx.globals.baseUrl) {
      const url = normaliseBaseUrl(ctx.globals.baseUrl, '--base-url');
      const region = regionForUrl(url);
      if (region) profile.region = region;
      else profile.baseUrl = url;
    }
    if (opts.publicKey) profile.publicKey = opts.publicKey;
    if (opts.secretKeyStdin) profile.secretKey = await readSecret(ctx.io.stdin);
    if (opts.apiKeyStdin) profile.apiKey = await readSecret(ctx.io.stdin);
    if ((opts.secretKeyStdin && !profile.secretKey) || (opts.apiKeyStdin && !profile.apiKey)) {
      throw new UsageError('stdin was empty: pipe the key in, e.g. printf %s "$LANGFUSE_SECRET_KEY" | llmobs profile add ...');
    }

    const missing = missingParts(profile);
    if (missing.length) {
      if (!ctx.interactive) {
        throw new ConfigError(`profile "${opts.name}" needs ${missing.join(', ')}`, {
          hint: `Without a terminal nothing is asked. Example:\n  printf %s "$SECRET" | llmobs profile add ${opts.name} --region eu --public-key pk-lf-... --secret-key-stdin`,
        });
      }
      await askMissing(ctx, profile);
    }
    checkKeys(profile);
    ctx.addSecret(profile.secretKey);
    ctx.addSecret(profile.apiKey);

    // Checked again under the store's lock: of two concurrent adds of one name, one fails.
    if (opts.force) store.put(opts.name, profile, opts.default || store.activeName() === undefined);
    else if (!store.add(opts.name, profile, opts.default || 'if-none')) {
      throw new UsageError(`profile "${opts.name}" already exists`, { hint: 'Pass --force to replace it, or pick another name.' });
    }
    const active = store.activeName() === opts.name;
    const url = profile.baseUrl ?? REGIONS[profile.region as Region].url;
    if (ctx.globals.json) {
      const { baseUrl, region, auth, publicKey } = summarise(opts.name, profile, active);
      ctx.out.printJson({ name: opts.name, baseUrl, region, auth, publicKey, active, replaced: existing !== undefined, path: store.path });
      return;
    }
    ctx.out.success(`${existing ? 'Replaced' : 'Added'} profile "${opts.name}" for ${url}${active ? ' (active)' : ''}`);
    ctx.out.hint(`Saved in ${store.path}. Check it with: llmobs profile test ${opts.name}`);
  },
});
