import { parseJsonKeepingPrecision } from '../core/json-precision.js';
import type { ModelDefinition } from '../core/models/types.js';
import type { CountStats } from './tokenizer.js';
import type { EncodingName } from './encodings.js';
import { encodingForTokenizerModel, isChatModel } from './tiktoken-models.js';

/**
 * Counts tokens of `text` in `encoding`. Contract, to match the server:
 * - tiktoken encodings: `encode(text, "all")`, i.e. special tokens such as `<|endoftext|>` count as one token;
 * - `claude`: what `countTokens(text)` of `@anthropic-ai/tokenizer` returns (it NFKC-normalises first).
 */
export type TokenCounter = (encoding: EncodingName, text: string, stats?: CountStats) => number;

/**
 * The reference tokenizer merges a piece in time quadratic in its length: about 2 s for 40 KB of
 * one letter, 8 s for 80 KB on a 2-core machine. Past the server's 30 s limit per call (the input,
 * or the output) the generation keeps no usage. From the work of one piece this long, in one
 * call, an estimate warns that the server may not get there.
 */
export const SLOW_PIECE_BYTES = 100_000;

export interface TokenizerInfo {
  id: 'openai' | 'claude';
  encoding: EncodingName;
  tokenizerModel?: string;
}

export interface ChatConfig {
  tokensPerMessage: number;
  tokensPerName: number;
}

export type TokenizerResolution =
  | {
      ok: true;
      tokenizer: TokenizerInfo;
      /** Message overhead, when the tokenizer model is a chat model and the config has it. */
      chat: ChatConfig | null;
      /** A chat tokenizer model without numeric tokensPerMessage/tokensPerName: chat arrays get no count. */
      chatConfigMissing: boolean;
    }
  | { ok: false; reason: 'no-tokenizer' | 'unknown-tokenizer' | 'invalid-config'; message: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Which tokenizer the server would use for a definition, or why it would not tokenize at all. */
export function resolveTokenizer(def: Pick<ModelDefinition, 'tokenizerId' | 'tokenizerConfig'>): TokenizerResolution {
  if (def.tokenizerId === null || def.tokenizerId === undefined) {
    return { ok: false, reason: 'no-tokenizer', message: 'the definition has no tokenizer, so the server never computes usage for it' };
  }
  if (def.tokenizerId === 'claude') {
    return { ok: true, tokenizer: { id: 'claude', encoding: 'claude' }, chat: null, chatConfigMissing: false };
  }
  if (def.tokenizerId !== 'openai') {
    return { ok: false, reason: 'unknown-tokenizer', message: `the server does not know the tokenizer "${def.tokenizerId}"` };
  }
  const cfg = def.tokenizerConfig;
  const tokenizerModel = isRecord(cfg) ? cfg['tokenizerModel'] : undefined;
  if (typeof tokenizerModel !== 'string') {
    return { ok: false, reason: 'invalid-config', message: 'tokenizer "openai" needs tokenizerConfig.tokenizerModel; the server skips tokenization without it' };
  }
  const encoding = encodingForTokenizerModel(tokenizerModel);
  if (encoding === undefined) {
    return {
      ok: false,
      reason: 'invalid-config',
      message: `the server cannot tokenize with tokenizerModel "${tokenizerModel}" (not in its tiktoken model list)`,
    };
  }
  const tokenizer: TokenizerInfo = { id: 'openai', encoding, tokenizerModel };
  if (!isChatModel(tokenizerModel)) return { ok: true, tokenizer, chat: null, chatConfigMissing: false };
  const perMessage = (cfg as Record<string, unknown>)['tokensPerMessage'];
  const perName = (cfg as Record<string, unknown>)['tokensPerName'];
  const numeric = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (numeric(perMessage) && numeric(perName)) {
    return { ok: true, tokenizer, chat: { tokensPerMessage: perMessage, tokensPerName: perName }, chatConfigMissing: false };
  }
  return { ok: true, tokenizer, chat: null, chatConfigMissing: true };
}

export type TokenCountOutcome =
  | {
      kind: 'count';
      tokens: number;
      path: 'chat' | 'text' | 'claude';
      /** Statistics of the long pieces, when the counter tells and there are any. */
      pieces?: CountStats;
    }
  /** The server returns no count (and logs why). */
  | { kind: 'none'; reason: string }
  /** The server's tokenizer throws; the whole observation then gets no usage. */
  | { kind: 'error'; reason: string };

/** What ingestion hands to the tokenizer: the last truthy value, stringified unless already a string. */
export function ingestionText(value: unknown): string | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// Most texts handed to the tokenizer (outputs, prompts) are plain text, and a thrown parse error
// costs more than counting their tokens. Text that cannot be JSON is recognised first: JSON starts
// with one of {["-0123456789tfn (after white space), and a number or a literal must be one whole.
// Anything that passes still goes through JSON.parse, so the result is always JSON.parse's, except
// that a number a double would round comes back as its digits, a string, as on the service.
const JSON_START = /^\s*[[{"\-0-9tfn]/;
const JSON_SCALAR = /^\s*(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*$/;

/** JSON.parse(text), or the text itself when it is not JSON (the service's parseJsonPrioritised). */
export function parseJsonPrioritised(text: string): unknown {
  const start = JSON_START.exec(text);
  if (!start) return text;
  const first = start[0][start[0].length - 1]!;
  if (first !== '{' && first !== '[' && first !== '"' && !JSON_SCALAR.test(text)) return text;
  try {
    return parseJsonKeepingPrecision(text);
  } catch {
    return text;
  }
}

interface ChatMessage {
  role: string;
  content: string;
  name?: string;
  [key: string]: unknown;
}

function isChatMessageArray(value: unknown): value is ChatMessage[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        'role' in item &&
        typeof item.role === 'string' &&
        'content' in item &&
        typeof item.content === 'string' &&
        (!('name' in item) || typeof item.name === 'string'),
    )
  );
}

const CHAT_KEYS = ['content', 'role', 'name', 'tool_calls', 'function_call', 'toolCalls', 'functionCall'];

class TokenizerThrows extends Error {}

function encodeLength(count: TokenCounter, encoding: EncodingName, value: unknown, stats: CountStats): number {
  // The WASM tiktoken throws on anything but a string.
  if (typeof value !== 'string') {
    throw new TokenizerThrows(`the tokenizer is handed a ${Array.isArray(value) ? 'array' : typeof value}, which it cannot encode`);
  }
  return count(encoding, value, stats);
}

function chatCount(messages: ChatMessage[], chat: ChatConfig, encoding: EncodingName, count: TokenCounter, stats: CountStats): number {
  let n = 0;
  for (const message of messages) {
    n += chat.tokensPerMessage;
    for (const key of Object.keys(message)) {
      const value = message[key];
      if (value && CHAT_KEYS.includes(key)) {
        const tokens = encodeLength(count, encoding, value, stats);
        if (tokens) n += tokens;
      }
      if (key === 'name') n += chat.tokensPerName;
    }
  }
  // "every reply is primed with <|start|>assistant<|message|>"
  return n + 3;
}

/**
 * The server's `tokenCount({model, text})`. `text` is normally the string from `ingestionText`;
 * other values are accepted because the function itself handles them.
 */
export function serverTokenCount(resolution: TokenizerResolution, text: unknown, count: TokenCounter): TokenCountOutcome {
  if (text === null || text === undefined || (Array.isArray(text) && text.length === 0)) {
    return { kind: 'none', reason: 'no text' };
  }
  if (!resolution.ok) return { kind: 'none', reason: resolution.message };
  const { tokenizer } = resolution;
  const stats: CountStats = { longestPiece: 0, pieceWork: 0 };
  const counted = (tokens: number, path: 'chat' | 'text' | 'claude'): TokenCountOutcome =>
    stats.longestPiece > 0 ? { kind: 'count', tokens, path, pieces: stats } : { kind: 'count', tokens, path };
  try {
    if (tokenizer.id === 'claude') {
      return counted(encodeLength(count, 'claude', typeof text === 'string' ? text : JSON.stringify(text), stats), 'claude');
    }
    const parsed = typeof text === 'string' ? parseJsonPrioritised(text) : text;
    if (isChatMessageArray(parsed) && isChatModel(tokenizer.tokenizerModel ?? '')) {
      if (resolution.chat === null) {
        return {
          kind: 'none',
          reason: `chat input, but the definition's tokenizerConfig lacks numeric tokensPerMessage/tokensPerName for chat model "${tokenizer.tokenizerModel}"`,
        };
      }
      return counted(chatCount(parsed, resolution.chat, tokenizer.encoding, count, stats), 'chat');
    }
    const asText = typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
    return counted(encodeLength(count, tokenizer.encoding, asText, stats), 'text');
  } catch (e) {
    if (e instanceof TokenizerThrows) return { kind: 'error', reason: e.message };
    // JSON text nested deeply enough that turning it back into text overflows the stack: one
    // generation's input must not fail a whole ingestion request (or an estimate) with a crash.
    if (e instanceof RangeError) return { kind: 'error', reason: 'the text is JSON nested too deeply to be counted' };
    throw e;
  }
}

/** `ingestionText`, or undefined with the reason when the value is nested too deeply for JSON text. */
function textOf(value: unknown): { text: string | undefined } | { error: TokenCountOutcome } {
  try {
    return { text: ingestionText(value) };
  } catch (e) {
    if (e instanceof RangeError) return { error: { kind: 'error', reason: 'the value is nested too deeply to be counted' } };
    throw e;
  }
}

export interface ObservationTokenization {
  input: TokenCountOutcome;
  output: TokenCountOutcome;
  /** `usage_details` as the server builds it from the counts; `{}` when the tokenizer failed. */
  usage: Record<string, number>;
  failed: boolean;
}

/** Tokenizes input and output separately and assembles `{input, output, total}` like the server. */
export function tokenizeObservation(
  resolution: TokenizerResolution,
  input: unknown,
  output: unknown,
  count: TokenCounter,
): ObservationTokenization {
  const inputText = textOf(input);
  const outputText = textOf(output);
  const inputOutcome = 'error' in inputText ? inputText.error : serverTokenCount(resolution, inputText.text, count);
  const outputOutcome = 'error' in outputText ? outputText.error : serverTokenCount(resolution, outputText.text, count);
  if (inputOutcome.kind === 'error' || outputOutcome.kind === 'error') {
    return { input: inputOutcome, output: outputOutcome, usage: {}, failed: true };
  }
  const inCount = inputOutcome.kind === 'count' ? inputOutcome.tokens : undefined;
  const outCount = outputOutcome.kind === 'count' ? outputOutcome.tokens : undefined;
  const total = inCount || outCount ? (inCount ?? 0) + (outCount ?? 0) : undefined;
  const usage: Record<string, number> = {};
  if (inCount != null) usage['input'] = inCount;
  if (outCount != null) usage['output'] = outCount;
  if (total != null) usage['total'] = total;
  return { input: inputOutcome, output: outputOutcome, usage, failed: false };
}
