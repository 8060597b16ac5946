// What `prompts create` reads besides its flags: the content (from --text, --file, --chat-file or
// stdin) and the config (from --config or --config-file).
import type { Context } from '../../context.js';
import { dropFinalLineBreak, inferPromptType, parseChatContent, parsePromptContent } from '../../core/prompts/parse-content.js';
import type { PromptContent, PromptType } from '../../core/prompts/types.js';
import { UsageError } from '../../errors.js';
import { parseJson, parseJsonOrYaml, readTextInput } from '../../io/files.js';

export interface ContentFlags {
  text?: string | undefined;
  file?: string | undefined;
  chatFile?: string | undefined;
  type?: PromptType | undefined;
}

/** The content from the one source given, or from stdin when none is. */
export async function readContent(ctx: Context, flags: ContentFlags): Promise<PromptContent> {
  if (flags.text !== undefined) return flags.type === 'chat' ? { type: 'chat', prompt: parseChatContent(flags.text) } : { type: 'text', prompt: flags.text };
  if (flags.chatFile) return { type: 'chat', prompt: parseChatContent(await readTextInput(ctx, flags.chatFile)) };
  if (flags.file) {
    const text = await readTextInput(ctx, flags.file);
    if (flags.type === 'chat') return { type: 'chat', prompt: parseChatContent(text) };
    if (flags.type === undefined && inferPromptType(text) === 'chat') {
      ctx.out.warn(`${flags.file} looks like chat messages but --file makes a text prompt; use --chat-file (or --type chat) for a chat prompt`);
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
  const content = parsePromptContent(text, flags.type);
  return content.type === 'text' ? { type: 'text', prompt: dropFinalLineBreak(content.prompt) } : content;
}

/** The config as given, or undefined when neither flag is. */
export async function readConfig(ctx: Context, flags: { config?: string | undefined; configFile?: string | undefined }): Promise<unknown> {
  if (flags.configFile) return parseJsonOrYaml(await readTextInput(ctx, flags.configFile), flags.configFile);
  return flags.config !== undefined ? parseJson(flags.config, '--config') : undefined;
}
