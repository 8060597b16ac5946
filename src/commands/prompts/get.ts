import { z } from 'zod';
import { contentOf, getPrompt } from '../../api/prompts.js';
import { type Prompt, ResolutionGraphSchema } from '../../api/schemas/prompts.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { analyzeCompile } from '../../core/prompts/analyze.js';
import { referencedVersions, type ResolutionGraph } from '../../core/prompts/references.js';
import { isPlaceholder, type PromptContent } from '../../core/prompts/types.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { promptName, promptVersionOptions, selectorFrom, writeText } from './shared.js';

const Options = z.object({
  ...promptVersionOptions,
  raw: z.boolean().default(false),
  resolve: z.boolean().default(true),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  const name = promptName(opts.name);
  const selector = selectorFrom(opts);
  if (opts.raw && ctx.globals.json) throw new UsageError('use either --raw or --json, not both');

  const prompt = await getPrompt(await ctx.api(), name, selector, { resolve: opts.resolve });
  if (ctx.globals.json) return ctx.out.printJson(prompt);
  const content = contentOf(prompt);
  if (opts.raw) {
    if (content.type === 'text') writeText(ctx, content.prompt);
    else ctx.out.printJson(content.prompt);
    return;
  }
  printDetails(ctx, prompt, content);
}

function printDetails(ctx: Context, prompt: Prompt, content: PromptContent): void {
  const { variables, placeholders } = templateNames(content);
  const pairs: Array<readonly [string, string | number]> = [
    ['Name', prompt.name],
    ['Version', prompt.version],
    ['Type', prompt.type],
    ['Labels', prompt.labels.join(', ')],
    ['Tags', prompt.tags.join(', ')],
    ['Commit message', prompt.commitMessage ?? ''],
    ['Created', [prompt.createdAt, prompt.createdBy ? `by ${prompt.createdBy}` : ''].filter(Boolean).join(' ')],
    ['Config', JSON.stringify(prompt.config ?? {})],
  ];
  const graph = ResolutionGraphSchema.safeParse(prompt.resolutionGraph);
  if (graph.success) pairs.push(['References', referencesText(graph.data)]);
  pairs.push(['Variables', variables.join(', ')]);
  if (content.type === 'chat') pairs.push(['Placeholders', placeholders.join(', ')]);
  ctx.out.keyValues(pairs);
  ctx.out.line();
  // A display, not the content itself (that is --raw): every block ends its line.
  const block = (text: string) => ctx.out.write(text.endsWith('\n') ? text : `${text}\n`);
  if (content.type === 'text') {
    block(content.prompt);
    return;
  }
  content.prompt.forEach((item, index) => {
    if (index > 0) ctx.out.line();
    if (isPlaceholder(item)) ctx.out.heading(`[placeholder: ${item.name}]`);
    else {
      ctx.out.heading(`[${item.role}]`);
      block(item.content);
    }
  });
}

/** The versions the content was resolved with: `middle v4, leaf v1 (in middle v4)`. */
function referencesText(graph: ResolutionGraph): string {
  return referencedVersions(graph)
    .map((node) => `${node.name} v${node.version}${node.from.id === graph.root.id ? '' : ` (in ${node.from.name} v${node.from.version})`}`)
    .join(', ');
}

/** What compile will ask for; a template mustache cannot read shows none rather than failing `get`. */
function templateNames(content: PromptContent): { variables: string[]; placeholders: string[] } {
  try {
    const analysis = analyzeCompile(content);
    return { variables: analysis.missingVariables, placeholders: analysis.missingPlaceholders };
  } catch {
    return { variables: [], placeholders: [] };
  }
}
