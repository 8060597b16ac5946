import { z } from 'zod';
import { contentOf, getPrompt } from '../../api/prompts.js';
import type { Prompt } from '../../api/schemas/prompts.js';
import type { Context } from '../../context.js';
import { type PromptSide, diffPrompts } from '../../core/prompts/diff.js';
import { colourDiff } from '../../output/diff.js';
import type { ActionInput } from '../action.js';
import { parseOptions, wholeNumber } from '../options.js';
import { promptName, versionOrLabel } from './shared.js';

const Options = z.object({
  name: z.string(),
  a: z.string(),
  b: z.string(),
  context: z.string().transform(wholeNumber(0, 100_000)),
  exitCode: z.boolean().default(false),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0], a: args[1], b: args[2] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  const name = promptName(opts.name);
  const [selectorA, selectorB] = [versionOrLabel(opts.a), versionOrLabel(opts.b)];
  const client = await ctx.api();
  const [a, b] = await Promise.all([getPrompt(client, name, selectorA), getPrompt(client, name, selectorB)]);
  const diff = diffPrompts(side(a), side(b), { context: opts.context });
  const same = diff.content === '' && diff.config === '';
  // Like prompts status --exit-code: 9 (a check asked for did not hold) when there are differences,
  // so a script can tell them from an unexpected error (1).
  if (opts.exitCode && !same) ctx.exitCode = 9;

  if (ctx.globals.json) {
    ctx.out.printJson({
      name,
      a: { ref: opts.a, version: a.version, labels: a.labels },
      b: { ref: opts.b, version: b.version, labels: b.labels },
      same,
      content: diff.content,
      config: diff.config,
    });
    return;
  }
  if (a.version === b.version) ctx.out.info(`${opts.a} and ${opts.b} are both version ${a.version}.`);
  if (same) {
    if (a.version !== b.version) ctx.out.info(`No differences in content or config between version ${a.version} and version ${b.version}.`);
    return;
  }
  for (const patch of [diff.content, diff.config]) if (patch) ctx.out.write(colourDiff(ctx.out, patch));
}

function side(prompt: Prompt): PromptSide {
  const content = contentOf(prompt);
  return { name: prompt.name, version: prompt.version, labels: prompt.labels, prompt: content.prompt, config: prompt.config };
}
