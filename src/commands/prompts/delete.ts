import { z } from 'zod';
import { compactVersions, deletePrompt, getPrompt, requirePromptMeta } from '../../api/prompts.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { promptName, promptVersionOptions, selectorFrom, shellQuote } from './shared.js';

const Options = z.object({
  ...promptVersionOptions,
  yes: z.boolean().default(false),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
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
}
