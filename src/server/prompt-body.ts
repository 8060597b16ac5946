// Checks of prompt request bodies and queries, answering as the server's zod schemas do
// (API.md 4.2–4.6): unknown keys are dropped, failures are 400 "Invalid request data" with issues.
import { validatePromptName } from '../core/prompts/name.js';
import { LABEL_MAX_LENGTH, LABEL_PATTERN } from '../core/prompts/label.js';
import { COMMIT_MESSAGE_MAX_LENGTH } from '../core/prompts/commit-message.js';
import { PLACEHOLDER_NAME_PATTERN } from '../core/prompts/chat-content.js';
import { updatedAtSchema } from '../core/prompts/updated-at.js';
import { type Issue, invalidRequestData } from './errors.js';
import type { StoredChatItem } from './state.js';

export interface CreatePromptInput {
  name: string;
  type: 'text' | 'chat';
  prompt: string | StoredChatItem[];
  labels: string[];
  /** Undefined: keep the previous version's tags. */
  tags: string[] | undefined;
  config: unknown;
  commitMessage: string | null;
}

type Body = Record<string, unknown>;

function typeIssue(path: Array<string | number>, expected: string, value: unknown): Issue {
  const received = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return { code: 'invalid_type', expected, path, message: `Invalid input: expected ${expected}, received ${received}` };
}

/**
 * `CreatePromptSchema` is a union of the text and the chat shape. The branch is picked the way
 * a caller means it (an array or `type: "chat"` is chat) and its issues are reported, rather
 * than zod's nested union report.
 */
export function parseCreatePromptBody(raw: unknown): CreatePromptInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidRequestData([typeIssue([], 'object', raw)]);
  const body = raw as Body;
  const issues: Issue[] = [];

  let name = '';
  if (typeof body.name !== 'string') issues.push(typeIssue(['name'], 'string', body.name));
  else {
    try {
      name = validatePromptName(body.name);
    } catch (error) {
      issues.push({ code: 'custom', path: ['name'], message: (error as Error).message });
    }
  }

  const chat = body.type === 'chat' || Array.isArray(body.prompt);
  let prompt: string | StoredChatItem[] = '';
  if (chat) {
    if (body.type !== 'chat') issues.push({ code: 'invalid_value', values: ['chat'], path: ['type'], message: 'Invalid input: expected "chat"' });
    if (!Array.isArray(body.prompt)) issues.push(typeIssue(['prompt'], 'array', body.prompt));
    else prompt = body.prompt.map((item: unknown, index) => chatItem(item, index, issues));
  } else {
    if (body.type !== undefined && body.type !== 'text') {
      issues.push({ code: 'invalid_value', values: ['text'], path: ['type'], message: 'Invalid input: expected "text"' });
    }
    if (typeof body.prompt !== 'string') issues.push(typeIssue(['prompt'], 'string', body.prompt));
    else prompt = body.prompt;
  }

  const labels: string[] = [];
  if (body.labels !== undefined) {
    if (!Array.isArray(body.labels)) issues.push(typeIssue(['labels'], 'array', body.labels));
    else {
      body.labels.forEach((label: unknown, index) => {
        if (typeof label !== 'string') issues.push(typeIssue(['labels', index], 'string', label));
        else if (label.length < 1 || label.length > LABEL_MAX_LENGTH || !LABEL_PATTERN.test(label)) {
          issues.push({
            code: 'invalid_format',
            format: 'regex',
            path: ['labels', index],
            message: `Label must be 1 to ${LABEL_MAX_LENGTH} lowercase letters, digits, '_', '-' or '.'`,
          });
        } else labels.push(label);
      });
    }
  }

  let tags: string[] | undefined;
  if (body.tags !== undefined && body.tags !== null) {
    if (!Array.isArray(body.tags)) issues.push(typeIssue(['tags'], 'array', body.tags));
    else {
      tags = [];
      body.tags.forEach((tag: unknown, index) => {
        if (typeof tag === 'string') tags!.push(tag);
        else issues.push(typeIssue(['tags', index], 'string', tag));
      });
    }
  }

  let commitMessage: string | null = null;
  if (body.commitMessage !== undefined && body.commitMessage !== null) {
    if (typeof body.commitMessage !== 'string') issues.push(typeIssue(['commitMessage'], 'string', body.commitMessage));
    else if (body.commitMessage.length > COMMIT_MESSAGE_MAX_LENGTH) {
      issues.push({ code: 'too_big', maximum: COMMIT_MESSAGE_MAX_LENGTH, origin: 'string', inclusive: true, path: ['commitMessage'], message: `Too big: expected string to have <=${COMMIT_MESSAGE_MAX_LENGTH} characters` });
    } else commitMessage = body.commitMessage;
  }

  if (issues.length) throw invalidRequestData(issues);
  return {
    name,
    type: chat ? 'chat' : 'text',
    prompt,
    labels: [...new Set(labels)],
    tags,
    config: body.config ?? {},
    commitMessage,
  };
}

/** A message keeps only role and content (so `type: "chatmessage"` goes); a placeholder keeps its name. */
function chatItem(item: unknown, index: number, issues: Issue[]): StoredChatItem {
  const path = ['prompt', index];
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    issues.push(typeIssue(path, 'object', item));
    return { role: '', content: '' };
  }
  const fields = item as Body;
  if (typeof fields.role === 'string' && typeof fields.content === 'string') return { role: fields.role, content: fields.content };
  if (fields.type === 'placeholder') {
    if (typeof fields.name === 'string' && PLACEHOLDER_NAME_PATTERN.test(fields.name)) return { type: 'placeholder', name: fields.name };
    issues.push({ code: 'invalid_format', format: 'regex', path: [...path, 'name'], message: 'Placeholder name must start with a letter and contain only alphanumeric characters and underscores' });
    return { role: '', content: '' };
  }
  issues.push({ code: 'invalid_union', path, message: 'Invalid input: expected {role, content} or {type: "placeholder", name}' });
  return { role: '', content: '' };
}

/** An optional integer query parameter; "" counts as unset. */
export function optionalInt(query: URLSearchParams, name: string, issues: Issue[]): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw.trim())) {
    issues.push({ code: 'invalid_type', expected: 'int', path: [name], message: `Invalid input: expected int, received ${JSON.stringify(raw)}` });
    return undefined;
  }
  return Number(raw);
}

/**
 * A query datetime checked with the server's `z.iso.datetime({ offset: true })`, its issue as the
 * server reports it; "" counts as unset.
 */
export function optionalDateTime(query: URLSearchParams, name: string, issues: Issue[]): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const parsed = updatedAtSchema().safeParse(raw);
  if (!parsed.success) {
    issues.push(...parsed.error.issues.map((issue): Issue => ({ ...issue, path: [name] })));
    return undefined;
  }
  return Date.parse(raw);
}
