// The prompt file format of `prompts pull/status/push`: one file per prompt, made for reading
// and reviewing in pull requests.
//
//   NAME.md    a text prompt: optional YAML front matter (config, tags, labels) between `---`
//              lines, then the text exactly as it is, followed by one line break that is not part
//              of the prompt. Reading drops one final `\n` (or `\r\n`) and nothing else, so a file
//              saved with or without that line break gives the same prompt. A file whose line
//              breaks are all `\r\n` (Windows) reads as if they were `\n`.
//   NAME.yaml  a chat prompt: `type: chat`, config, tags, labels, then `messages:`, each
//              `{role, content}` (multi-line content as a literal `|` block) or `{placeholder: NAME}`.
//              Also used for a text prompt (`text:`) that a .md file cannot carry exactly (one
//              whose line breaks are `\r\n`, ending in a lone `\r`, or starting with a byte-order
//              mark).
//   NAME.json  the same document as JSON: the last resort, for content that YAML cannot spell
//              exactly (unpaired UTF-16 surrogates).
//
// Whatever form is written is read back and compared before it is used, so a pull never writes a
// file that would push something else.
import { parseDocument, stringify } from 'yaml';
import { PLACEHOLDER_NAME_PATTERN, validateChatContent } from './chat-content.js';
import { validateLabel } from './label.js';
import { stableJson } from './stable-json.js';
import { isPlaceholder, type ChatItem, type PromptContent } from './types.js';
import { findVariablePlaceholderClashes } from './variables.js';

export const PROMPT_FILE_EXTENSIONS = ['md', 'yaml', 'yml', 'json'] as const;
export type PromptFileExtension = (typeof PROMPT_FILE_EXTENSIONS)[number];

/** What a prompt file says: a version's content, and what the file wants of the prompt. */
export interface PromptFileData {
  content: PromptContent;
  /** `{}` when the file has none (the server's default). */
  config: unknown;
  /** The prompt's tags; undefined when the file does not say, and then they are left alone. */
  tags?: string[] | undefined;
  /** Labels that should point at a version equal to this file (never `latest`). */
  labels: string[];
}

export interface SerialisedPromptFile {
  extension: 'md' | 'yaml' | 'json';
  text: string;
}

export type ParsedPromptFile = { ok: true; data: PromptFileData } | { ok: false; problems: string[] };

const MD_KEYS = ['type', 'config', 'tags', 'labels'];
const DOCUMENT_KEYS = ['type', 'text', 'messages', 'config', 'tags', 'labels'];
const BOM = '\uFEFF';

export function isPromptFileExtension(extension: string): extension is PromptFileExtension {
  return (PROMPT_FILE_EXTENSIONS as readonly string[]).includes(extension);
}

/** Same content, type and config (key order in config does not matter). */
export function sameVersionContent(a: { content: PromptContent; config: unknown }, b: { content: PromptContent; config: unknown }): boolean {
  return a.content.type === b.content.type && sameContent(a.content, b.content) && stableJson(a.config ?? {}) === stableJson(b.config ?? {});
}

export function sameContent(a: PromptContent, b: PromptContent): boolean {
  if (a.type === 'text' || b.type === 'text') return a.type === b.type && a.prompt === b.prompt;
  if (a.prompt.length !== b.prompt.length) return false;
  return a.prompt.every((item, index) => {
    const other = b.prompt[index]!;
    if (isPlaceholder(item) || isPlaceholder(other)) return isPlaceholder(item) && isPlaceholder(other) && item.name === other.name;
    return item.role === other.role && item.content === other.content;
  });
}

/** Tags compare as sets: the order the server lists them in means nothing. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  const left = [...new Set(a)].sort();
  const right = [...new Set(b)].sort();
  return left.length === right.length && left.every((tag, i) => tag === right[i]);
}

// ---- writing ----------------------------------------------------------------------------------

/**
 * The file for a prompt version: Markdown for a text prompt, YAML for a chat prompt, with the
 * fallbacks described at the top. Labels are written only when given.
 */
export function serialisePromptFile(data: PromptFileData): SerialisedPromptFile {
  const candidates: Array<() => SerialisedPromptFile> =
    data.content.type === 'text' ? [() => markdown(data), () => yamlDocument(data), () => jsonDocument(data)] : [() => yamlDocument(data), () => jsonDocument(data)];
  for (const candidate of candidates) {
    const file = candidate();
    if (readsBackAs(file, data)) return file;
  }
  // JSON.stringify escapes whatever UTF-8 cannot carry, so this is not reached for JSON input.
  throw new Error('no prompt file form carries this content exactly');
}

function readsBackAs(file: SerialisedPromptFile, data: PromptFileData): boolean {
  const bytes = Buffer.from(file.text, 'utf8').toString('utf8');
  const parsed = parsePromptFile(bytes, file.extension);
  if (!parsed.ok) return false;
  const back = parsed.data;
  return (
    back.content.type === data.content.type &&
    JSON.stringify(normaliseContent(back.content)) === JSON.stringify(normaliseContent(data.content)) &&
    stableJson(back.config) === stableJson(data.config ?? {}) &&
    JSON.stringify(back.tags ?? []) === JSON.stringify(data.tags ?? []) &&
    JSON.stringify(back.labels) === JSON.stringify(data.labels)
  );
}

function normaliseContent(content: PromptContent): unknown {
  if (content.type === 'text') return content.prompt;
  return content.prompt.map((item) => (isPlaceholder(item) ? { placeholder: item.name } : { role: item.role, content: item.content }));
}

/** The keys every form shares, in the order they are written: what the prompt is, then its content. */
function metadata(data: PromptFileData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isEmptyConfig(data.config)) out.config = data.config;
  if (data.tags !== undefined && data.tags.length > 0) out.tags = data.tags;
  if (data.labels.length > 0) out.labels = data.labels;
  return out;
}

function isEmptyConfig(config: unknown): boolean {
  return config === null || (typeof config === 'object' && !Array.isArray(config) && Object.keys(config).length === 0);
}

function yamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0, minContentWidth: 0, blockQuote: 'literal', version: '1.2', aliasDuplicateObjects: false });
}

function markdown(data: PromptFileData): SerialisedPromptFile {
  if (data.content.type !== 'text') throw new Error('markdown holds text prompts only');
  const text = data.content.prompt;
  const meta = metadata(data);
  // A text that itself starts with a `---` line would be read as front matter: an empty front
  // matter in front of it keeps it text.
  const needsFrontMatter = Object.keys(meta).length > 0 || /^---(\r?\n|$)/.test(text);
  const front = needsFrontMatter ? `---\n${Object.keys(meta).length > 0 ? yamlText(meta) : ''}---\n` : '';
  return { extension: 'md', text: `${front}${text}\n` };
}

function documentOf(data: PromptFileData): Record<string, unknown> {
  const body =
    data.content.type === 'text'
      ? { text: data.content.prompt }
      : { messages: data.content.prompt.map((item) => (isPlaceholder(item) ? { placeholder: item.name } : { role: item.role, content: item.content })) };
  return { type: data.content.type, ...metadata(data), ...body };
}

function yamlDocument(data: PromptFileData): SerialisedPromptFile {
  return { extension: 'yaml', text: yamlText(documentOf(data)) };
}

function jsonDocument(data: PromptFileData): SerialisedPromptFile {
  return { extension: 'json', text: `${JSON.stringify(documentOf(data), null, 2)}\n` };
}

// ---- reading ----------------------------------------------------------------------------------

/** Reads a prompt file; every problem in it is reported, not just the first. */
export function parsePromptFile(text: string, extension: string): ParsedPromptFile {
  const ext = extension.toLowerCase();
  if (ext === 'md') return parseMarkdown(text);
  if (ext === 'yaml' || ext === 'yml' || ext === 'json') return parseDocumentFile(text, ext);
  return { ok: false, problems: [`.${extension} is not a prompt file (use .md, .yaml or .json)`] };
}

function parseMarkdown(raw: string): ParsedPromptFile {
  const text = windowsLineBreaks(raw.startsWith(BOM) ? raw.slice(1) : raw);
  let front: Record<string, unknown> = {};
  let body = text;
  const problems: string[] = [];
  const opening = /^---(\r?\n|$)/.exec(text);
  if (opening) {
    const rest = text.slice(opening[0].length);
    const closing = /(^|\r?\n)---(\r?\n|$)/.exec(rest);
    if (!closing) return { ok: false, problems: ['the front matter that starts with --- on the first line has no closing --- line'] };
    const yaml = rest.slice(0, closing.index);
    body = rest.slice(closing.index + closing[0].length);
    const parsed = parseYaml(yaml, 'front matter');
    if (!parsed.ok) return parsed;
    if (parsed.value !== null && parsed.value !== undefined) {
      if (!isRecord(parsed.value)) return { ok: false, problems: ['the front matter must be a mapping of keys (config, tags, labels)'] };
      front = parsed.value;
    }
    unknownKeys(front, MD_KEYS, problems, 'front matter');
    if (front.type !== undefined && front.type !== 'text') {
      problems.push(`front matter: type ${JSON.stringify(front.type)}: a .md file holds a text prompt; write a chat prompt as .yaml with messages:`);
    }
  }
  body = body.replace(/\r?\n$/, '');
  return finish({ type: 'text', prompt: body }, front, problems);
}

/**
 * A file whose every line break is `\r\n` (saved on Windows, or checked out by git with
 * core.autocrlf) reads as if its line breaks were `\n`, so an editor's or git's choice of line
 * break never changes a prompt. YAML reads `\r\n` as `\n` anyway; this gives Markdown the same.
 * A file that mixes both keeps every character: its `\r`s are deliberate. A text whose own line
 * breaks are `\r\n` is therefore written as YAML (with escapes), which carries it exactly.
 */
function windowsLineBreaks(text: string): string {
  return text.includes('\r\n') && !/(^|[^\r])\n/.test(text) ? text.replaceAll('\r\n', '\n') : text;
}

function parseDocumentFile(text: string, ext: string): ParsedPromptFile {
  const parsed = parseYaml(text.startsWith(BOM) ? text.slice(1) : text, ext === 'json' ? 'JSON' : 'YAML');
  if (!parsed.ok) return parsed;
  const doc = parsed.value;
  if (!isRecord(doc)) return { ok: false, problems: ['the file must be a mapping with type and text or messages'] };
  const problems: string[] = [];
  unknownKeys(doc, DOCUMENT_KEYS, problems, 'file');
  const hasText = Object.hasOwn(doc, 'text');
  const hasMessages = Object.hasOwn(doc, 'messages');
  if (doc.type !== undefined && doc.type !== 'text' && doc.type !== 'chat') problems.push(`type: ${JSON.stringify(doc.type)} is neither text nor chat`);
  if (hasText && hasMessages) problems.push('give either text (a text prompt) or messages (a chat prompt), not both');
  if (!hasText && !hasMessages) problems.push('the prompt is missing: give text (a text prompt) or messages (a chat prompt)');
  const type = hasMessages ? 'chat' : 'text';
  if (doc.type !== undefined && (doc.type === 'text' || doc.type === 'chat') && doc.type !== type && (hasText || hasMessages)) {
    problems.push(`type: ${doc.type} does not match the ${hasMessages ? 'messages' : 'text'} the file gives`);
  }
  let content: PromptContent | undefined;
  if (hasText && !hasMessages) {
    if (typeof doc.text !== 'string') problems.push(`text must be a string, got ${describe(doc.text)}${quoteHint(doc.text)}`);
    else content = { type: 'text', prompt: doc.text };
  } else if (hasMessages && !hasText) {
    const messages = parseMessages(doc.messages, problems);
    if (messages) content = { type: 'chat', prompt: messages };
  }
  if (!content) return { ok: false, problems: [...problems, ...metadataProblems(doc)] };
  return finish(content, doc, problems);
}

function parseMessages(value: unknown, problems: string[]): ChatItem[] | undefined {
  if (!Array.isArray(value)) {
    problems.push(`messages must be a list, got ${describe(value)}`);
    return undefined;
  }
  const items: ChatItem[] = [];
  value.forEach((item: unknown, index) => {
    const at = `messages[${index}]`;
    let candidate = item;
    if (isRecord(item) && Object.hasOwn(item, 'placeholder')) {
      const extra = Object.keys(item).filter((key) => key !== 'placeholder');
      if (extra.length > 0) {
        problems.push(`${at}: a placeholder has only its name; remove ${extra.map((k) => `"${k}"`).join(', ')}`);
        return;
      }
      if (typeof item.placeholder !== 'string' || !PLACEHOLDER_NAME_PATTERN.test(item.placeholder)) {
        problems.push(`${at}: invalid placeholder name ${JSON.stringify(item.placeholder)}; it must start with a letter and contain only letters, digits and '_'`);
        return;
      }
      candidate = { type: 'placeholder', name: item.placeholder };
    } else if (isRecord(item) && !Object.hasOwn(item, 'role') && Object.hasOwn(item, 'content')) {
      problems.push(`${at}: the message has no role (e.g. role: system, user or assistant)`);
      return;
    }
    try {
      items.push(...validateChatContent([candidate]));
    } catch (error) {
      const hint = isRecord(item) && Object.hasOwn(item, 'content') && typeof item.content !== 'string' ? quoteHint(item.content) : '';
      problems.push(`${at}: ${(error as Error).message.replace(/^Chat message \[0\]:?\s*/, '').replace(/\.$/, '')}${hint}`);
    }
  });
  if (items.length === value.length) {
    const clashes = findVariablePlaceholderClashes(items);
    if (clashes.length > 0) problems.push(`messages: ${clashes.join(', ')} ${clashes.length === 1 ? 'is' : 'are'} used both as a variable and as a placeholder, which the server refuses`);
    return items;
  }
  return undefined;
}

function finish(content: PromptContent, fields: Record<string, unknown>, problems: string[]): ParsedPromptFile {
  problems.push(...metadataProblems(fields));
  if (problems.length > 0) return { ok: false, problems };
  const data: PromptFileData = {
    content,
    // `config:` with nothing after it (null) means no config, as leaving it out does: the server
    // refuses a null config, and gives `{}` for none.
    config: Object.hasOwn(fields, 'config') && fields.config !== null ? fields.config : {},
    labels: (fields.labels as string[] | undefined) ?? [],
  };
  if (Object.hasOwn(fields, 'tags')) data.tags = fields.tags as string[];
  return { ok: true, data };
}

function metadataProblems(fields: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (Object.hasOwn(fields, 'config')) {
    const why = notJson(fields.config, 'config');
    if (why) problems.push(why);
  }
  if (Object.hasOwn(fields, 'tags')) {
    const tags = fields.tags;
    if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) problems.push(`tags must be a list of strings, got ${describe(tags)}`);
  }
  if (Object.hasOwn(fields, 'labels')) {
    const labels = fields.labels;
    if (!Array.isArray(labels) || !labels.every((label) => typeof label === 'string')) problems.push(`labels must be a list of strings, got ${describe(labels)}`);
    else {
      for (const label of labels) {
        try {
          validateLabel(label);
        } catch (error) {
          problems.push(`labels: ${(error as Error).message.replace(/\.$/, '')}`);
        }
      }
      if (new Set(labels).size !== labels.length) problems.push('labels: a label is listed twice');
    }
  }
  return problems;
}

function parseYaml(text: string, what: string): { ok: true; value: unknown } | { ok: false; problems: string[] } {
  // uniqueKeys: a key given twice is an error, not a silent "last one wins". Aliases are capped so
  // a hostile file cannot expand into gigabytes.
  const doc = parseDocument(text, { logLevel: 'error', uniqueKeys: true, version: '1.2', prettyErrors: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.slice(0, 5).map((error) =>
        error.code === 'MULTIPLE_DOCS'
          ? `${what} holds more than one document (a line --- between them); a prompt file holds one prompt`
          : `${what} is not valid: ${error.message.split('\n')[0]!.replace(/:$/, '')}`,
      ),
    };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) };
  } catch (error) {
    return { ok: false, problems: [`${what} is not valid: ${(error as Error).message.split('\n')[0]}`] };
  }
}

function unknownKeys(fields: Record<string, unknown>, allowed: readonly string[], problems: string[], where: string): void {
  for (const key of Object.keys(fields)) {
    if (allowed.includes(key)) continue;
    const hint = key === 'prompt' ? ' (the text is the body of a .md file, or text:/messages: in a .yaml file)' : key === 'commitMessage' ? ' (give it to push with --message)' : '';
    problems.push(`${where}: unknown key "${key}"${hint}; known keys: ${allowed.join(', ')}`);
  }
}

/** Why a value is not plain JSON (NaN, .inf, a date), or undefined when it is. */
function notJson(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}, which JSON cannot hold`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const why = notJson(value[i], `${path}[${i}]`);
      if (why) return why;
    }
    return undefined;
  }
  if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const why = notJson(item, `${path}.${key}`);
      if (why) return why;
    }
    return undefined;
  }
  return `${path} is ${describe(value)}, which JSON cannot hold`;
}

/** What to do about a value YAML read as something other than text. */
function quoteHint(value: unknown): string {
  if (value === null) return '; for an empty text write ""';
  if (typeof value === 'number' || typeof value === 'boolean') return `; YAML reads it as a ${typeof value}: put it in quotes to keep it text`;
  if (typeof value === 'object' && !Array.isArray(value)) return '; YAML reads text that starts with { as a mapping: put it in quotes, e.g. "{{question}}"';
  return '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Map) return 'a mapping with non-string keys';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

// ---- names and paths --------------------------------------------------------------------------

/**
 * The relative path (with `/`) of a prompt's file, without extension, or why there is none: a
 * name whose folders would be `.`, `..` or empty, an absolute one, or one with a backslash cannot
 * be a path inside the directory on every system.
 */
export function promptFileStem(name: string): { ok: true; stem: string } | { ok: false; problem: string } {
  if (name === '.' || name === '..') return { ok: false, problem: `a prompt named '${name}' cannot be read through the API (URLs drop such a path segment) nor be a file` };
  if (name.startsWith('/')) return { ok: false, problem: `the name '${name}' is an absolute path` };
  const segments = name.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') return { ok: false, problem: `the name '${name}' has a folder '${segment}' that cannot be a directory` };
    if (segment.includes('\0')) return { ok: false, problem: `the name '${name}' contains a NUL character` };
    // Windows splits paths at backslashes too: 'a\\..\\..\\x' would lead out of the directory there.
    if (segment.includes('\\')) return { ok: false, problem: `the name '${name}' has a backslash, a folder separator on Windows: its file would not be the same on every system` };
    // Directories that reading a prompt directory skips.
    if (segment === '.git' || segment === 'node_modules') return { ok: false, problem: `the name '${name}' has a folder '${segment}', which is not searched for prompt files` };
  }
  return { ok: true, stem: name };
}

/** The prompt name of a file: its path under the directory (folders joined by `/`), without the extension. */
export function promptNameOfPath(relativePath: string): { name: string; extension: string } | undefined {
  const match = /^(.*)\.([A-Za-z]+)$/s.exec(relativePath);
  if (!match) return undefined;
  return { name: match[1]!, extension: match[2]!.toLowerCase() };
}
