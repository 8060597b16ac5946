import { parseDocument } from 'yaml';
import { validateChatContent } from './chat-content.js';
import { PromptUsageError } from './errors.js';
import type { ChatItem, PromptContent, PromptType } from './types.js';

/**
 * Parses chat messages written as JSON or YAML. JSON is tried first because its parser reports
 * JSON mistakes better; YAML (a superset) is the fallback, which also takes flow style such as
 * `[{role: system, content: Hi}]`.
 */
export function parseChatContent(text: string): ChatItem[] {
  return validateChatContent(parseStructured(text));
}

/**
 * Reads prompt content from file text. A given type is obeyed; otherwise text that parses as a
 * list of objects is a chat prompt and anything else is a text prompt kept verbatim.
 */
export function parsePromptContent(text: string, type?: PromptType): PromptContent {
  if (type === 'chat') return { type: 'chat', prompt: parseChatContent(text) };
  if (type === undefined) {
    const value = tryParseStructured(text);
    if (inferTypeOfValue(value) === 'chat') return { type: 'chat', prompt: validateChatContent(value) };
  }
  return { type: 'text', prompt: text };
}

/**
 * Guesses the type of file text. Only a list whose items are all objects counts as chat, so a
 * text prompt that happens to be a YAML list of sentences stays text.
 */
export function inferPromptType(text: string): PromptType {
  return inferTypeOfValue(tryParseStructured(text)) === 'chat' ? 'chat' : 'text';
}

/** The type a parsed value would be sent as, or undefined if it is neither shape. */
export function inferTypeOfValue(value: unknown): PromptType | undefined {
  if (typeof value === 'string') return 'text';
  if (
    Array.isArray(value) &&
    value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))
  ) {
    return 'chat';
  }
  return undefined;
}

/** Unparsable text can only be a text prompt, so for inference a failure is just "not chat". */
function tryParseStructured(text: string): unknown {
  try {
    return parseStructured(text);
  } catch {
    return undefined;
  }
}

function parseStructured(text: string): unknown {
  let jsonError: Error;
  try {
    return JSON.parse(text);
  } catch (error) {
    jsonError = error as Error;
  }
  // `logLevel: 'error'` keeps the yaml package from printing warnings through process.emitWarning.
  let yamlError: Error;
  try {
    const doc = parseDocument(text, { logLevel: 'error' });
    if (doc.errors[0] !== undefined) throw doc.errors[0];
    return doc.toJS();
  } catch (error) {
    yamlError = error as Error;
  }
  const looksLikeJson = /^\s*[[{]/.test(text);
  const detail = looksLikeJson ? jsonError.message : (yamlError.message.split('\n')[0] ?? '');
  throw new PromptUsageError(
    `Chat messages are neither valid JSON nor valid YAML: ${detail}`,
  );
}

/** Editors and `echo` end files with a line break that is not part of the prompt. */
export function dropFinalLineBreak(text: string): string {
  return text.replace(/\r?\n$/, '');
}
