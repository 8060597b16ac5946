// llmobs prompts create: create a prompt, or a new version of an existing one.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'create',
  summary: 'create a prompt, or a new version of an existing one; prints the version number and its labels',
  args: [
    { name: '<name>', help: 'prompt name' },
  ],
  flags: [
    { flags: '--text <text>', help: 'text prompt content' },
    { flags: '--file <file>', help: 'text prompt content from a file (- for stdin); one final line break is dropped' },
    { flags: '--chat-file <file>', help: 'chat messages from a JSON or YAML file (- for stdin): [{role, content}, {type: placeholder, name}]' },
    { flags: '--type <type>', help: 'prompt type (default: chat for --chat-file, inferred from the content on stdin, else text)', choices: ['text', 'chat'] },
    { flags: '-l, --label <label>', help: 'label for the new version (repeatable); it moves from whichever version had it', repeatable: true },
    { flags: '--config <json>', help: 'config as JSON, e.g. \'{"model":"gpt-4o","temperature":0}\'' },
    { flags: '--config-file <file>', help: 'config from a JSON or YAML file' },
    { flags: '-m, --commit-message <message>', help: 'what changed in this version (at most 500 characters)' },
    { flags: '--tag <tag>', help: 'tag (repeatable). Tags apply to every version of the prompt: giving any replaces them on all versions; giving none keeps the current ones', repeatable: true },
    { flags: '--clear-tags', help: 'remove every tag from every version of the prompt' },
    { flags: '--dry-run', help: 'check everything and print the request body; send nothing' },
  ],
  notes: `
  Content comes from exactly one of --text, --file, --chat-file, or stdin when
  none is given.
  Everything is checked before anything is sent (exit 2): the name, labels
  (lowercase letters, digits, _ - . and at most 36 characters; 'latest' is set
  by the server), the commit message, chat messages, and that a chat prompt does
  not use one name for a variable and a placeholder.
  A create is never repeated after a failure, except when the server answers
  that it collided with concurrent creates of the same prompt (nothing was
  created): then it is tried again, up to --retries.`,
  examples: [
    'llmobs prompts create support/greeting --text \'Hello {{name}}\' --label staging',
    'llmobs prompts create support/agent --chat-file agent.yaml --config-file model.json -m \'shorter answers\'',
    'cat prompt.txt | llmobs prompts create summary --label production --tag team-a',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { createPromptRetrying, PROMPTS_PATH }, { buildCreatePromptBody }, { validateLabels }, { readConfig, readContent }, { promptName }, { createRetry }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/create-body.js'), import('../../core/prompts/label.js'), import('./create-input.js'), import('./shared.js'), import('./version-writes.js')]);
    const opts = parseOptions(
      z.object({
        name: z.string(),
        text: z.string().optional(),
        file: z.string().min(1).optional(),
        chatFile: z.string().min(1).optional(),
        type: z.enum(['text', 'chat']).optional(),
        label: z.array(z.string()).default([]),
        config: z.string().optional(),
        configFile: z.string().min(1).optional(),
        commitMessage: z.string().optional(),
        tag: z.array(z.string()).default([]),
        clearTags: z.boolean().default(false),
        dryRun: z.boolean().default(false),
      }),
      { ...given, name: args[0] },
    );
    const sources = [opts.text !== undefined && '--text', opts.file && '--file', opts.chatFile && '--chat-file'].filter(Boolean);
    if (sources.length > 1) throw new UsageError(`give the content once: ${sources.join(', ')} were given together`);
    if (opts.chatFile && opts.type === 'text') throw new UsageError('--chat-file makes a chat prompt; drop --type text or use --file');
    if (opts.config !== undefined && opts.configFile) throw new UsageError('use either --config or --config-file, not both');
    if (opts.clearTags && opts.tag.length) throw new UsageError('use either --tag or --clear-tags, not both');
    // Cheap checks first, so a bad name or label is reported before stdin or files are read.
    promptName(opts.name);
    validateLabels(opts.label);

    const body = buildCreatePromptBody({
      name: opts.name,
      content: await readContent(ctx, opts),
      labels: opts.label,
      tags: opts.clearTags ? [] : opts.tag.length ? opts.tag : undefined,
      config: await readConfig(ctx, opts),
      commitMessage: opts.commitMessage,
    });

    if (opts.dryRun) {
      ctx.out.printJson(ctx.globals.json ? { dryRun: true, method: 'POST', path: PROMPTS_PATH, body } : body);
      ctx.out.info(`Dry run: this ${body.type} prompt was checked and not sent.`);
      return;
    }

    const created = await createPromptRetrying(await ctx.api(), body, createRetry(ctx));
    if (ctx.globals.json) return ctx.out.printJson(created);
    ctx.out.success(`Created version ${created.version} of ${created.type} prompt '${created.name}'`);
    ctx.out.keyValues([
      ['Name', created.name],
      ['Version', created.version],
      ['Type', created.type],
      ['Labels', created.labels.join(', ')],
      ['Tags', created.tags.join(', ')],
    ]);
  },
});
