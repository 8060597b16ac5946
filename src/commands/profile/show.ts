// llmobs profile show: show a profile, or without a name the settings in effect and where each comes from.
import type { Context } from '../../context.js';
import type { Source } from '../../config/resolve.js';
import { ProfileNotFoundError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'show',
  summary: 'show a profile, or without a name the settings in effect and where each comes from',
  args: [
    { name: '[profile]', help: 'profile name' },
  ],
  examples: [
    '# The settings in effect and where each comes from',
    'llmobs profile show',
    'llmobs profile show prod-us --json',
  ],
  async run(ctx, { args }) {
    const [{ maskKey }, { describeConfig, profileUrl, sourceText }] = await Promise.all([import('../../config/mask.js'), import('../../config/resolve.js')]);
    async function showStored(ctx: Context, name: string): Promise<void> {
      const store = await ctx.profiles();
      const profile = store.get(name);
      if (!profile) {
        throw new ProfileNotFoundError(name, store.names());
      }
      const data = {
        name,
        active: store.activeName() === name,
        baseUrl: profileUrl(profile) ?? null,
        region: profile.region ?? null,
        auth: profile.apiKey ? 'bearer' : profile.secretKey ? 'basic' : 'none',
        publicKey: profile.publicKey ? maskKey(profile.publicKey) : null,
        secretKey: profile.secretKey ? maskKey(profile.secretKey) : null,
        apiKey: profile.apiKey ? maskKey(profile.apiKey) : null,
        path: store.path,
      };
      if (ctx.globals.json) return ctx.out.printJson(data);
      ctx.out.keyValues([
        ['Profile', `${name}${data.active ? ' (active)' : ''}`],
        ['Server', data.baseUrl],
        ['Region', data.region ?? 'none (custom server)'],
        ['Auth', data.auth],
        ['Public key', data.publicKey],
        ['Secret key', data.secretKey],
        ...(data.apiKey ? ([['API key', data.apiKey]] as const) : []),
        ['File', store.path],
      ]);
    }

    async function showEffective(ctx: Context): Promise<void> {
      const store = await ctx.profiles();
      const view = describeConfig({ globals: ctx.globals, env: ctx.env, store });
      const { publicKey, secretKey, apiKey } = view.credentials;
      const from = (source: Source | undefined) => (source ? sourceText(source) : null);
      const auth = secretKey && publicKey ? 'basic' : apiKey ? 'bearer' : 'none';
      const data = {
        profile: view.profile ? { name: view.profile.name, from: from(view.profile.source) } : null,
        credentialsFrom: view.credentialsFrom ?? null,
        baseUrl: view.baseUrl ? { value: view.baseUrl, from: from(view.baseUrlSource) } : null,
        auth,
        publicKey: publicKey ? { value: maskKey(publicKey), from: from(view.keySources.publicKey) } : null,
        secretKey: secretKey ? { value: maskKey(secretKey), from: from(view.keySources.secretKey) } : null,
        apiKey: apiKey ? { value: maskKey(apiKey), from: from(view.keySources.apiKey) } : null,
        configFile: store.path,
        notes: view.notes,
        problem: view.problem ? { message: view.problem.message, hint: view.problem.hint ?? null } : null,
      };
      if (ctx.globals.json) {
        ctx.out.printJson(data);
        if (view.problem) throw view.problem;
        return;
      }
      const withSource = (entry: { value: string; from: string | null } | null) => (entry ? `${entry.value}  ${ctx.out.c.dim(`(${entry.from})`)}` : ctx.out.c.dim('not set'));
      ctx.out.keyValues([
        ['Profile', data.profile ? `${data.profile.name}  ${ctx.out.c.dim(`(${data.profile.from})`)}` : ctx.out.c.dim('none')],
        ['Server', withSource(data.baseUrl)],
        ['Auth', auth],
        ['Public key', withSource(data.publicKey)],
        ['Secret key', withSource(data.secretKey)],
        ...(apiKey ? ([['API key', withSource(data.apiKey)]] as const) : []),
        ['Config file', store.path],
      ]);
      for (const note of view.notes) ctx.out.hint(`note: ${note}`);
      // The settings cannot be used as they are: say so with the exit code every command would give.
      if (view.problem) throw view.problem;
    }

    const name = args[0] as string | undefined;
    return name ? showStored(ctx, name) : showEffective(ctx);
  },
});
