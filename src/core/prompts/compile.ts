import type mustache from 'mustache';
import { fillPlaceholder, isMessageLike, type SplicedMessage } from './placeholder-value.js';
import { MUSTACHE_TAGS, newWriter, parseTemplate } from './template.js';
import { isPlaceholder, type ChatItem, type ChatMessage, type PlaceholderMessage, type PromptContent } from './types.js';

export type Variables = Record<string, unknown>;
export type Placeholders = Record<string, unknown>;

/**
 * One item of a compiled chat prompt, as the official SDK returns it: a message, a placeholder
 * left unfilled, or the JSON text of a placeholder value that was not a list of messages.
 */
export type CompiledChatItem = ChatMessage | SplicedMessage | PlaceholderMessage | string;

/**
 * Prompts are not HTML: values go in verbatim. The escape function is passed per call, never
 * assigned to the global `mustache.escape`, so other users of mustache keep their escaping.
 * An identity function (not `String`) matches the SDK exactly: mustache appends the raw value.
 */
function renderOptions(): mustache.RenderOptions {
  return { escape: (value: unknown) => value as string, tags: [...MUSTACHE_TAGS] };
}

function render(writer: mustache.Writer, template: string, variables: Variables | undefined, where?: string): string {
  parseTemplate(template, writer, where); // caches the tokens in `writer`, reporting syntax errors clearly
  return writer.render(template, variables ?? {}, undefined, renderOptions());
}

/** Compiles a text prompt exactly as `TextPromptClient.compile()` does. */
export function compileText(template: string, variables?: Variables): string {
  return render(newWriter(), template, variables);
}

/**
 * Compiles a chat prompt exactly as `ChatPromptClient.compile()` does: placeholders are filled
 * first, then every message with string content, spliced ones included, is rendered.
 */
export function compileChat(
  messages: readonly ChatItem[],
  variables?: Variables,
  placeholders?: Placeholders,
): CompiledChatItem[] {
  // Each item keeps where it came from, so a template error names the message the user wrote.
  const filled: { item: CompiledChatItem; where: string }[] = [];
  messages.forEach((item, index) => {
    if (!isPlaceholder(item)) {
      filled.push({ item: { role: item.role, content: item.content }, where: `Chat message [${index}]` });
      return;
    }
    const fill = fillPlaceholder(placeholders, item.name);
    if (fill.kind === 'unfilled') filled.push({ item: { type: 'placeholder', name: item.name }, where: '' });
    else if (fill.kind === 'json') filled.push({ item: fill.text, where: '' });
    else if (fill.kind === 'messages') {
      fill.messages.forEach((message, n) =>
        filled.push({ item: message, where: `Message [${n}] of placeholder "${item.name}"` }),
      );
    }
  });

  const writer = newWriter();
  return filled.map(({ item, where }) =>
    isRenderable(item) ? { ...item, content: render(writer, item.content, variables, where) } : item,
  );
}

/** Compiles either kind of prompt. */
export function compilePrompt(
  content: PromptContent,
  variables?: Variables,
  placeholders?: Placeholders,
): string | CompiledChatItem[] {
  return content.type === 'text'
    ? compileText(content.prompt, variables)
    : compileChat(content.prompt, variables, placeholders);
}

function isRenderable(item: CompiledChatItem): item is SplicedMessage & { content: string } {
  return isMessageLike(item) && typeof item.content === 'string';
}
