import { PromptUsageError, describeType, show } from './errors.js';
import type { ChatItem } from './types.js';

export const PLACEHOLDER_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]*$/;

/**
 * Checks a parsed value against the server's chat schema (`PromptChatMessageSchema`): each item
 * is `{role, content}` with string values, or `{type: "placeholder", name}`.
 *
 * Stricter than the server in two ways, both to avoid silent data loss: keys the server would drop
 * (`name`, `tool_calls`, ...) are refused instead, and an item that is both a message and a
 * placeholder is refused (the server keeps it as a message and forgets the placeholder).
 * `type: "chatmessage"`, which the official SDK adds to messages, is accepted and dropped.
 */
export function validateChatContent(value: unknown): ChatItem[] {
  if (!Array.isArray(value)) {
    throw new PromptUsageError(
      `A chat prompt must be an array of messages, got ${describeType(value)}.`,
    );
  }
  return value.map((item: unknown, index) => validateChatItem(item, index));
}

function validateChatItem(item: unknown, index: number): ChatItem {
  const at = `Chat message [${index}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new PromptUsageError(
      `${at} must be an object with role and content, got ${describeType(item)}.`,
    );
  }
  const fields = item as Record<string, unknown>;
  const has = (key: string) => Object.hasOwn(fields, key);

  if (fields.type === 'placeholder') {
    if (has('role') || has('content')) {
      throw new PromptUsageError(
        `${at} has type "placeholder" and also role/content; a placeholder has only a name.`,
      );
    }
    rejectUnknownKeys(at, fields, ['type', 'name'], ['type', 'name']);
    const name = fields.name;
    if (typeof name !== 'string' || !PLACEHOLDER_NAME_PATTERN.test(name)) {
      throw new PromptUsageError(
        `${at}: invalid placeholder name ${show(name)}; it must start with a letter and contain only letters, digits and '_'.`,
      );
    }
    return { type: 'placeholder', name };
  }

  if (has('type') && fields.type !== 'chatmessage') {
    throw new PromptUsageError(
      `${at} has an unknown type ${show(fields.type)}; use "placeholder" for a placeholder or leave type out.`,
    );
  }
  if (!has('role') && !has('content') && has('name')) {
    throw new PromptUsageError(
      `${at} looks like a placeholder but lacks type: "placeholder", which the server requires.`,
    );
  }
  rejectUnknownKeys(at, fields, ['type', 'role', 'content'], ['role', 'content']);
  for (const key of ['role', 'content'] as const) {
    if (typeof fields[key] !== 'string') {
      throw new PromptUsageError(
        `${at}: "${key}" must be a string, got ${has(key) ? describeType(fields[key]) : 'nothing'}.`,
        key === 'content' && typeof fields[key] === 'object' && fields[key] !== null
          ? 'In YAML, quote a value that starts with "{{", or it is read as a mapping.'
          : undefined,
      );
    }
  }
  return { role: fields.role as string, content: fields.content as string };
}

function rejectUnknownKeys(
  at: string,
  fields: Record<string, unknown>,
  allowed: readonly string[],
  kept: readonly string[],
): void {
  const unknown = Object.keys(fields).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    const quote = (keys: readonly string[]) => keys.map((k) => `"${k}"`).join(', ');
    throw new PromptUsageError(
      `${at} has unsupported field${unknown.length > 1 ? 's' : ''} ${quote(unknown)}; the server keeps only ${quote(kept)}.`,
    );
  }
}
