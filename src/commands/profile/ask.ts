// What profile add asks for on a terminal when the flags and stdin left it out: the server (a
// Langfuse Cloud region, or a URL), then the key pair (the secret masked).
import { REGION_NAMES, REGIONS, type Region } from '../../config/regions.js';
import type { Profile } from '../../config/schema.js';
import { normaliseBaseUrl } from '../../config/url.js';
import type { Context } from '../../context.js';

/** Fills in the missing parts of `profile` from the answers. */
export async function askMissing(ctx: Context, profile: Profile): Promise<void> {
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
