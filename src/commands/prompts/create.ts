// llmobs prompts create: create a prompt, or a new version of an existing one.
import type { z } from 'zod';
import type { Context } from '../../context.js';
import type { CreatePromptBody } from '../../core/prompts/create-body.js';
import type { Prompt } from '../../api/schemas/prompts.js';
import type { PromptContent, PromptType } from '../../core/prompts/types.js';
import { ApiError, UsageError } from '../../errors.js';
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
    const [{ z }, { createPrompt, PROMPTS_PATH }, { buildCreatePromptBody }, { inferPromptType, parseChatContent, parsePromptContent }, { parseJson, parseJsonOrYaml, readTextInput }, { validateLabels }, { promptName }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/create-body.js'), import('../../core/prompts/parse-content.js'), import('../../io/files.js'), import('../../core/prompts/label.js'), import('./shared.js')]);
    const Options = z.object({
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
    });

    type Options = z.infer<typeof Options>;

    async function readContent(ctx: Context, opts: Options): Promise<PromptContent> {
      if (opts.text !== undefined) return opts.type === 'chat' ? { type: 'chat', prompt: parseChatContent(opts.text) } : { type: 'text', prompt: opts.text };
      if (opts.chatFile) return { type: 'chat', prompt: parseChatContent(await readTextInput(ctx, opts.chatFile)) };
      if (opts.file) {
        const text = await readTextInput(ctx, opts.file);
        if (opts.type === 'chat') return { type: 'chat', prompt: parseChatContent(text) };
        if (opts.type === undefined && inferPromptType(text) === 'chat') {
          ctx.out.warn(`${opts.file} looks like chat messages but --file makes a text prompt; use --chat-file (or --type chat) for a chat prompt`);
        }
        return { type: 'text', prompt: dropFinalLineBreak(text) };
      }
      if (ctx.io.stdin.isTTY) {
        throw new UsageError('no content given', { hint: 'Use --text, --file, --chat-file, or pipe the content in on stdin.' });
      }
      const text = await readTextInput(ctx, '-');
      if (text.trim() === '') {
        throw new UsageError('no content: stdin was empty', { hint: 'Use --text, --file or --chat-file, or pipe the content in on stdin.' });
      }
      const content = parsePromptContent(text, opts.type as PromptType | undefined);
      return content.type === 'text' ? { type: 'text', prompt: dropFinalLineBreak(content.prompt) } : content;
    }

    /** Editors and `echo` end files with a line break that is not part of the prompt. */
    function dropFinalLineBreak(text: string): string {
      return text.replace(/\r?\n$/, '');
    }

    /** A create that lost the race for a version number; the server created nothing. */
    function isVersionConflict(error: unknown): error is ApiError {
      return error instanceof ApiError && error.status === 400 && /unique constraint|concurrent prompt creation/i.test(error.serverMessage ?? '');
    }

    /**
     * POST is never retried by the client, since a repeat could create a second version. The one
     * exception is the server's own "two creates collided" answer: nothing was created, and the
     * server asks for a delay, so the create is tried again after a backoff (up to --retries times).
     */
    async function createWithRetry(ctx: Context, body: CreatePromptBody): Promise<Prompt> {
      const client = await ctx.api();
      for (let attempt = 0; ; attempt++) {
        try {
          return await createPrompt(client, body);
        } catch (error) {
          if (isVersionConflict(error) && attempt < ctx.globals.retries) {
            const delay = Math.round(250 * 2 ** attempt * (0.5 + ctx.random() / 2));
            ctx.trace(`  version conflict with a concurrent create; trying again in ${delay} ms`);
            await ctx.sleep(delay);
            continue;
          }
          throw explain(error, body.name);
        }
      }
    }

    function explain(error: unknown, name: string): unknown {
      if (!(error instanceof ApiError) || error.status !== 400) return error;
      if (/different prompt type/i.test(error.serverMessage ?? '')) {
        error.hint = `Every version of '${name}' has the same type; create the other type under a new name.`;
      } else if (isVersionConflict(error)) {
        error.hint = 'Other versions of this prompt were being created at the same moment. Nothing was created; run the command again.';
      }
      return error;
    }

    const opts = parseOptions(Options, { ...given, name: args[0] });
    const sources = [opts.text !== undefined && '--text', opts.file && '--file', opts.chatFile && '--chat-file'].filter(Boolean);
    if (sources.length > 1) throw new UsageError(`give the content once: ${sources.join(', ')} were given together`);
    if (opts.chatFile && opts.type === 'text') throw new UsageError('--chat-file makes a chat prompt; drop --type text or use --file');
    if (opts.config !== undefined && opts.configFile) throw new UsageError('use either --config or --config-file, not both');
    if (opts.clearTags && opts.tag.length) throw new UsageError('use either --tag or --clear-tags, not both');
    // Cheap checks first, so a bad name or label is reported before stdin or files are read.
    promptName(opts.name);
    validateLabels(opts.label);

    const content = await readContent(ctx, opts);
    const config = opts.configFile
      ? await parseJsonOrYaml(await readTextInput(ctx, opts.configFile), opts.configFile)
      : opts.config !== undefined
        ? parseJson(opts.config, '--config')
        : undefined;
    const body = buildCreatePromptBody({
      name: opts.name,
      content,
      labels: opts.label,
      tags: opts.clearTags ? [] : opts.tag.length ? opts.tag : undefined,
      config,
      commitMessage: opts.commitMessage,
    });

    if (opts.dryRun) {
      ctx.out.printJson(ctx.globals.json ? { dryRun: true, method: 'POST', path: PROMPTS_PATH, body } : body);
      ctx.out.info(`Dry run: this ${body.type} prompt was checked and not sent.`);
      return;
    }

    const created = await createWithRetry(ctx, body);
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
