// llmobs prompts delete: delete one version (by --version or --label), or without either the whole prompt.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'delete one version (--version), the versions with a label (--label), or without either the whole prompt',
  args: [
    { name: '<name>', help: 'prompt name' },
  ],
  flags: [
    { flags: '--version <n>', help: 'delete only this version' },
    { flags: '--label <label>', help: 'delete the version that carries this label' },
    { flags: '-y, --yes', help: 'do not ask for confirmation (required without a terminal)' },
  ],
  notes: `
  If the version holding 'latest' is deleted, the server moves 'latest' to the
  highest remaining version. Other labels on deleted versions are gone; fetching
  by them answers 404 afterwards.`,
  examples: [
    'llmobs prompts delete support/agent --version 2',
    'llmobs prompts rm support/old --yes',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { compactVersions, deletePrompt, getPrompt, requirePromptMeta }, { promptName, promptVersionOptions, selectorFrom }, { shellQuote }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('./shared.js'), import('../../core/shell-quote.js')]);
    const opts = parseOptions(z.object({ ...promptVersionOptions, yes: z.boolean().default(false) }), { ...given, name: args[0] });
    const name = promptName(opts.name);
    const selector = selectorFrom(opts);
    if (!opts.yes && !ctx.interactive) {
      throw new UsageError(`refusing to delete from prompt '${name}' without confirmation`, { hint: 'Pass --yes when not on a terminal.' });
    }
    const client = await ctx.api();

    // Read first: the confirmation says exactly what goes, and a typo fails here with exit 8.
    let versions: number[];
    let what: string;
    const lost: string[] = [];
    if ('version' in selector || 'label' in selector) {
      const target = await getPrompt(client, name, selector, { resolve: false });
      versions = [target.version];
      what = `version ${target.version} of prompt '${name}'${target.labels.length ? ` (labels: ${target.labels.join(', ')})` : ''}`;
      lost.push(...target.labels.filter((label) => label !== 'latest'));
    } else {
      const meta = await requirePromptMeta(client, name);
      versions = meta.versions;
      lost.push(...meta.labels);
      what = `all ${versions.length} version${versions.length === 1 ? '' : 's'} of prompt '${name}' (${compactVersions(versions)})`;
    }

    if (!opts.yes) {
      if (lost.length) ctx.out.warn(`afterwards no version has the label${lost.length > 1 ? 's' : ''} ${lost.map((l) => `'${l}'`).join(', ')}: fetching by ${lost.length > 1 ? 'them' : 'it'} answers 404`);
      const sure = await (await ctx.prompter()).confirm({ message: `Delete ${what}?`, default: false });
      if (!sure) {
        ctx.out.info('Nothing deleted.');
        return;
      }
    }
    // By the version read above, not by label: if the label moved meanwhile, what goes is still
    // what was confirmed.
    await deletePrompt(client, name, 'label' in selector ? { version: versions[0] as number } : selector);

    if (ctx.globals.json) return ctx.out.printJson({ name, deletedVersions: versions, removedLabels: lost });
    ctx.out.success(`Deleted ${what}`);
    if (lost.includes('production')) {
      ctx.out.hint(`No version is labelled production now; point it at one with: llmobs labels set ${shellQuote(name)} production --version N`);
    }
  },
});
