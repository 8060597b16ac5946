// llmobs prompts get: show one version: without --version or --label, the one labelled production.
import type { Context } from '../../context.js';
import type { Prompt } from '../../api/schemas/prompts.js';
import type { PromptContent } from '../../core/prompts/types.js';
import type { ResolutionGraph } from '../../core/prompts/references.js';
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'get',
  summary: 'show one version: without --version or --label, the one labelled production (the server\'s default)',
  args: [
    { name: '<name>', help: 'prompt name' },
  ],
  flags: [
    { flags: '--version <n>', help: 'a version number' },
    { flags: '--label <label>', help: 'the version that carries this label' },
    { flags: '--raw', help: 'print only the content: the text, or the chat messages as JSON' },
    { flags: '--no-resolve', help: 'the stored content, with references to other prompts left unresolved' },
  ],
  notes: `
  References to other prompts (@@@langfusePrompt:name=NAME|label=LABEL@@@ or
  |version=N) are replaced by those prompts' text, as they are labelled now;
  References lists the versions used.
  --json prints the API object (content, type, version, labels, tags, config,
  commit message, dates, and resolutionGraph: the versions each reference used,
  or null).
  --raw prints the content exactly as stored when piped, and ends it with a line
  break on a terminal.`,
  examples: [
    'llmobs prompts get support/agent',
    'llmobs prompts get support/agent --label staging --raw > agent.txt',
    'llmobs prompts get support/agent --version 3 --jq \'.config.model\'',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { contentOf, getPrompt }, { ResolutionGraphSchema }, { analyzeCompile }, { referencedVersions }, { isPlaceholder }, { promptName, promptVersionOptions, selectorFrom, writeText }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../api/schemas/prompts.js'), import('../../core/prompts/analyze.js'), import('../../core/prompts/references.js'), import('../../core/prompts/types.js'), import('./shared.js')]);
    const Options = z.object({
      ...promptVersionOptions,
      raw: z.boolean().default(false),
      resolve: z.boolean().default(true),
    });

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

    const opts = parseOptions(Options, { ...given, name: args[0] });
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
  },
});
