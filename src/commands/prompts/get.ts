// llmobs prompts get: show one version: without --version or --label, the one labelled production.
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
    const [{ z }, { contentOf, getPrompt }, { printPromptDetails }, { promptName, promptVersionOptions, selectorFrom, writeText }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('./render.js'), import('./shared.js')]);
    const opts = parseOptions(z.object({ ...promptVersionOptions, raw: z.boolean().default(false), resolve: z.boolean().default(true) }), { ...given, name: args[0] });
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
    printPromptDetails(ctx, prompt, content);
  },
});
