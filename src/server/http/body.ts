// Request bodies, read before anything else looks at the request (authentication included), as
// the real routes' body parser (Next.js `parseBody`) does: bounded by the route's limit, then
// parsed by content type. Too large is 413 "Body exceeded 1mb limit", bad JSON 400 "Invalid JSON",
// both as plain text. JSON nested deeper than MAX_JSON_DEPTH is refused before it is parsed: the
// real server's schemas overflow the stack on such bodies (a 500) and nothing here recurses that deep.
import type { IncomingMessage } from 'node:http';
import { decode as decodeForm } from 'node:querystring';
import { frameworkError, HttpError } from './errors.js';
import { ownTurn } from './json-stream.js';

export const MAX_JSON_DEPTH = 512;

/** Bytes of a size in the body parser's notation ("1mb", "4.5mb", "16kb"), as the `bytes` package reads it. */
export function parseSize(size: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)$/i.exec(size.trim());
  if (!match) throw new Error(`bad size ${size}`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[match[2]!.toLowerCase() as 'b']!;
  return Math.floor(Number(match[1]) * unit);
}

/** A byte count in that notation, for messages about limits set in bytes. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [['gb', 1024 ** 3], ['mb', 1024 ** 2], ['kb', 1024]] as const) {
    if (bytes >= size && Number.isInteger((bytes / size) * 100)) return `${bytes / size}${unit}`;
  }
  return `${bytes}b`;
}

export interface ReadBody {
  raw: Buffer;
  /** What the route sees; undefined for raw routes. */
  parsed: unknown;
}

const CHARSETS = new Map<string, BufferEncoding>([
  ['utf-8', 'utf8'],
  ['utf8', 'utf8'],
  ['us-ascii', 'latin1'],
  ['ascii', 'latin1'],
  ['iso-8859-1', 'latin1'],
  ['latin1', 'latin1'],
  ['utf-16le', 'utf16le'],
]);

/** Bytes of request bodies held in memory at once, by every request of one server together. */
export class BodyBudget {
  used = 0;
  constructor(readonly limit: number) {}
}

export const DEFAULT_BODY_BUDGET_BYTES = 256 * 1024 * 1024;

/** Reads the whole body within `limit` bytes; `label` names the limit in the 413 text. */
export async function readBody(req: IncomingMessage, limit: number, label: string, raw: boolean, budget?: BodyBudget): Promise<ReadBody> {
  const { type, charset } = contentType(req.headers['content-type']);
  const encoding = CHARSETS.get(charset ?? 'utf-8');
  const bytes = await collect(req, limit, label, budget);
  if (raw) return { raw: bytes, parsed: undefined };
  // Bodies read in the same turn are parsed in turns (json-stream.ts).
  if (bytes.length > 0) await ownTurn();
  if (!encoding) throw frameworkError(400, 'Invalid body');
  const text = bytes.toString(encoding);
  if (type === 'application/json' || type === 'application/ld+json') {
    if (text.length === 0) return { raw: bytes, parsed: {} };
    const depth = jsonDepth(text);
    if (depth > MAX_JSON_DEPTH) {
      throw new HttpError(400, { message: `JSON body is nested ${depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted`, error: 'InvalidRequestError' });
    }
    try {
      return { raw: bytes, parsed: JSON.parse(text) };
    } catch {
      throw frameworkError(400, 'Invalid JSON');
    }
  }
  if (type === 'application/x-www-form-urlencoded') return { raw: bytes, parsed: { ...decodeForm(text) } };
  return { raw: bytes, parsed: text };
}

/** The media type (lower case) and charset of a Content-Type header; text/plain when absent or malformed. */
function contentType(header: string | undefined): { type: string; charset: string | undefined } {
  const [media = '', ...params] = (header ?? 'text/plain').split(';');
  const type = media.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(type)) return { type: 'text/plain', charset: undefined };
  let charset: string | undefined;
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() === 'charset') charset = value.trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return { type, charset };
}

/** The answer when the bodies held at once would go over the budget: clients retry a 503. */
export const bodiesBusy = () =>
  new HttpError(503, { message: 'The server is receiving too many request bodies at once; try again in a moment.', error: 'ServiceUnavailableError' }, { 'retry-after': '1' });

function collect(req: IncomingMessage, limit: number, label: string, budget: BodyBudget | undefined): Promise<Buffer> {
  const tooLarge = () => frameworkError(413, `Body exceeded ${label} limit`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    // What this request holds of the budget; given back when the body is complete or abandoned
    // (the buffer then belongs to the handler, which runs before the next request's).
    let held = 0;
    const release = () => {
      if (budget) budget.used -= held;
      held = 0;
    };
    const fail = (error: unknown) => {
      failed = true;
      chunks.length = 0;
      release();
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) return fail(tooLarge());
      if (budget) {
        if (budget.used + chunk.length > budget.limit) return fail(bodiesBusy());
        budget.used += chunk.length;
        held += chunk.length;
      }
      chunks.push(chunk);
    });
    req.on('error', (error) => {
      if (!failed) fail(error);
    });
    req.on('close', () => {
      // Nobody is left to answer; the budget is what matters.
      if (!failed && !req.complete) fail(frameworkError(400, 'Request aborted'));
    });
    req.on('end', () => {
      if (failed) return;
      release();
      resolve(Buffer.concat(chunks));
    });
  });
}

/**
 * How much of a refused body is read on, and for how long, before the answer (below): twice the
 * largest route limit (OTLP's 32 MB), so a client that overshot a limit can finish sending and
 * read its 413, and no more, so one request cannot tie up the connection or the server's time. A
 * client that sends more, or more slowly, gets the answer and a closed connection.
 */
export const DRAIN_LIMIT = { bytes: 64 * 1024 * 1024, ms: 10_000 };

/**
 * Reads what is left of a refused body and throws it away; true once the request has ended.
 * A client such as fetch writes its whole body before it reads the answer: answering and closing
 * while it still writes fails its request (EPIPE) instead of showing the answer. Node's server
 * under the real routes drains too, unbounded; here the drain is bounded in bytes and time, so
 * no request can hold the server. False when a bound is reached or the connection goes.
 */
export function drainBody(req: IncomingMessage, limit: { bytes: number; ms: number } = DRAIN_LIMIT): Promise<boolean> {
  if (req.complete || req.readableEnded) {
    req.resume();
    return Promise.resolve(true);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit.bytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let drained = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
      resolve(ended);
    };
    const count = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > limit.bytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), limit.ms);
    timer.unref();
    req.on('data', count);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once('error', onClose);
    req.resume();
  });
}

/** The deepest nesting of arrays and objects in JSON text (strings skipped), without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Jump to the closing quote: the next one not escaped (preceded by an even run of backslashes).
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return deepest;
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 92) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}
