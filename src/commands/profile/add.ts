// llmobs profile add: add or replace a profile.
import type { Context } from '../../context.js';
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
    const [{ z }, { readSecret }, { maskKey }, { REGION_LIST, REGION_NAMES, REGIONS, regionForUrl }, { PROFILE_NAME }, { normaliseBaseUrl }] = await Promise.all([import('zod'), import('../../io/stdin.js'), import('../../config/mask.js'), import('../../config/regions.js'), import('../../config/schema.js'), import('../../config/url.js')]);
    const Options = z.object({
      name: z.string().regex(PROFILE_NAME, 'use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)'),
      region: z.enum(REGION_NAMES as [Region, ...Region[]], { message: `must be ${REGION_LIST}` }).optional(),
      publicKey: z.string().min(1).optional(),
      secretKeyStdin: z.boolean().default(false),
      apiKeyStdin: z.boolean().default(false),
      default: z.boolean().default(false),
      force: z.boolean().default(false),
    });

    function missingParts(profile: Profile): string[] {
      const missing: string[] = [];
      if (!profile.region && !profile.baseUrl) missing.push(`a server (--region ${REGION_NAMES.join('|')} or --base-url)`);
      if (!profile.apiKey) {
        if (!profile.publicKey) missing.push('a public key (--public-key)');
        if (!profile.secretKey) missing.push('a secret key (--secret-key-stdin)');
      }
      return missing;
    }

    async function ask(ctx: Context, profile: Profile): Promise<void> {
      const prompter = await ctx.prompter();
      if (!profile.region && !profile.baseUrl) {
        const choice = await prompter.select<string>({
          message: 'Server',
          choices: [
            ...REGION_NAMES.map((region) => ({ name: `${REGIONS[region].label} (${REGIONS[region].url})`, value: region })),
            { name: 'Self-hosted or other server', value: 'custom' },
          ],
        });
        if (choice === 'custom') {
          const raw = await prompter.input({ message: 'Base URL', validate: (value) => validUrl(value) });
          profile.baseUrl = normaliseBaseUrl(raw, 'the prompt');
        } else {
          profile.region = choice as Region;
        }
      }
      if (profile.apiKey) return;
      if (!profile.publicKey) {
        profile.publicKey = (await prompter.input({ message: 'Public key (pk-lf-...)', validate: (value) => (value.trim() ? true : 'required') })).trim();
      }
      if (!profile.secretKey) {
        profile.secretKey = (await prompter.password({ message: 'Secret key (sk-lf-...)', validate: (value) => (value.trim() ? true : 'required') })).trim();
      }
    }

    function validUrl(value: string): true | string {
      try {
        normaliseBaseUrl(value, 'the prompt');
        return true;
      } catch (error) {
        return (error as Error).message;
      }
    }

    /** Catches swapped or pasted-wrong keys before they are stored; never echoes a secret. */
    function checkKeys(profile: Profile): void {
      if (profile.publicKey?.startsWith('sk-')) {
        throw new UsageError('the public key looks like a secret key (starts with sk-); pass the secret key on stdin with --secret-key-stdin');
      }
      if (profile.secretKey?.startsWith('pk-')) {
        throw new UsageError('the secret key read from stdin looks like a public key (starts with pk-)');
      }
      for (const [label, value] of [['public key', profile.publicKey], ['secret key', profile.secretKey], ['API key', profile.apiKey]] as const) {
        if (value !== undefined && /\s/.test(value)) throw new UsageError(`the ${label} contains whitespace`);
      }
    }

    const opts = parseOptions(Options, { ...given, name: args[0] });
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
      await ask(ctx, profile);
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
      ctx.out.printJson({
        name: opts.name,
        baseUrl: url,
        region: profile.region ?? null,
        auth: profile.apiKey ? 'bearer' : 'basic',
        publicKey: profile.publicKey ? maskKey(profile.publicKey) : null,
        active,
        replaced: existing !== undefined,
        path: store.path,
      });
      return;
    }
    ctx.out.success(`${existing ? 'Replaced' : 'Added'} profile "${opts.name}" for ${url}${active ? ' (active)' : ''}`);
    ctx.out.hint(`Saved in ${store.path}. Check it with: llmobs profile test ${opts.name}`);
  },
});
