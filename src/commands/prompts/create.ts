import { z } from 'zod';
import { createPrompt, PROMPTS_PATH } from '../../api/prompts.js';
import type { Prompt } from '../../api/schemas/prompts.js';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import { type CreatePromptBody, buildCreatePromptBody } from '../../core/prompts/create-body.js';
import { inferPromptType, parseChatContent, parsePromptContent } from '../../core/prompts/parse-content.js';
import type { PromptContent, PromptType } from '../../core/prompts/types.js';
import { parseJson, parseJsonOrYaml, readTextInput } from '../../io/files.js';
import { validateLabels } from '../../core/prompts/label.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { promptName } from './shared.js';

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

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
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
}

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
