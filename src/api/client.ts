// The HTTP client every command uses: undici with a keep-alive agent (or the proxy from the
// environment), a timeout per attempt, retries with backoff, zod-checked answers, typed errors.
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from 'undici';
import type { z } from 'zod';
import { jsonTextDepth, MAX_JSON_DEPTH, type MemberElements } from '../core/json-depth.js';
import { ApiError, ConfigError, NetworkError } from '../errors.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { isLoopbackHost } from '../config/url.js';
import { describeNonJson, errorForBadResponse, errorForResponse, parseErrorBody } from './http-error.js';
import { type ProxyChoice, proxyFor, proxyFailure } from './proxy.js';
import { decideRetry, isIdempotent, parseRetryAfter, type RetryInput } from './retry.js';
import { type Page, pageSchema } from './schemas/common.js';

export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number>;
export type Query = Record<string, QueryValue>;

/** Limits on what a server can make llmobs read (docs/reference.md, "Limits"). */
export interface ReadLimits {
  /** Bytes of one answer's body; more is an error (exit 5), not read into memory. */
  maxResponseBytes: number;
  /** Pages one listing may follow; a server announcing more is an error unless raised. */
  maxPages: number;
  /** Bytes of all the pages of one listing together. */
  maxListingBytes: number;
}

export const DEFAULT_MAX_RESPONSE_MB = 32;
export const DEFAULT_MAX_PAGES = 1000;

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxResponseBytes: DEFAULT_MAX_RESPONSE_MB * 1024 * 1024,
  maxPages: DEFAULT_MAX_PAGES,
  maxListingBytes: 8 * DEFAULT_MAX_RESPONSE_MB * 1024 * 1024,
};

/** The limits for a command: `--max-pages`, and LLMOBS_MAX_RESPONSE_MB (megabytes per answer). */
export function readLimits(env: Record<string, string | undefined>, maxPages: number): ReadLimits {
  const raw = env[MAX_RESPONSE_ENV];
  let megabytes = DEFAULT_MAX_RESPONSE_MB;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !(n >= 1 && n <= 4096)) {
      throw new ConfigError(`${MAX_RESPONSE_ENV} must be a whole number of megabytes from 1 to 4,096, got ${JSON.stringify(raw)}`);
    }
    megabytes = n;
  }
  const bytes = megabytes * 1024 * 1024;
  return { maxResponseBytes: bytes, maxPages, maxListingBytes: 8 * bytes };
}

// Error bodies are only shown, never parsed into data: the first part says what went wrong.
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What one page of a listing holds, as read by a `PageReader`. */
export interface PageContent<T> {
  items: T[];
  /** The server's page count, when it gives one (trusted only as an upper bound). */
  totalPages?: number | undefined;
  /** The page size the server applied, when it says. */
  limit?: number | undefined;
}

export type PageReader<T> = (data: unknown) => PageContent<T>;

export interface ApiClientOptions {
  config: ResolvedConfig;
  timeoutMs: number;
  limits?: ReadLimits | undefined;
  retries: number;
  retryBaseMs: number;
  userAgent: string;
  dispatcher?: Dispatcher | undefined;
  env: Record<string, string | undefined>;
  trace?: ((line: string) => void) | undefined;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => Date;
}

export interface RequestOptions<T> {
  query?: Query | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /** Checks (and types) a 2xx answer. Without it the parsed JSON is returned as `unknown`. */
  schema?: z.ZodType<T> | undefined;
  /** Overrides the method's default retry safety. */
  idempotent?: boolean | undefined;
  /** Extra request headers (`llmobs api -H`); they replace the defaults of the same name. */
  headers?: Record<string, string> | undefined;
  /** Sees the body of a 2xx answer as received, before it is decoded and parsed (which waits for what it returns). */
  onBody?: ((body: Buffer) => void | Promise<void>) | undefined;
  /** Filled with where a member's elements lie in a 2xx answer's text, by the scan made before parsing it. */
  elements?: MemberElements | undefined;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  durationMs: number;
  attempts: number;
  /** Bytes of the body as received. */
  bytes: number;
}

/** The body was larger than allowed; only a bounded part was read. */
class BodyTooLarge extends Error {
  constructor(
    readonly status: number,
    readonly declared: number | undefined,
  ) {
    super('body too large');
  }
}

export interface RetryWait {
  /** The retry about to be made, from 1. */
  attempt: number;
  retries: number;
  delayMs: number;
  reason: string;
}

export class ApiClient {
  readonly config: ResolvedConfig;
  /** Told before each wait between attempts, so a long command can say why it is waiting. */
  onRetryWait: ((wait: RetryWait) => void) | undefined;
  private readonly options: ApiClientOptions;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  /** The proxy requests go through (from the environment), to blame it when it fails. */
  private readonly proxy: ProxyChoice | undefined;
  readonly limits: ReadLimits;

  constructor(options: ApiClientOptions) {
    this.options = options;
    this.config = options.config;
    this.limits = options.limits ?? DEFAULT_READ_LIMITS;
    if (options.dispatcher) {
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    } else {
      this.dispatcher = createDispatcher(options.env, options.timeoutMs);
      this.ownsDispatcher = true;
    }
    this.proxy = options.dispatcher ? undefined : proxyFor(options.config.baseUrl, options.env);
    for (const note of options.config.notes) this.trace(`note: ${note}`);
  }

  get baseUrl(): string {
    return this.config.baseUrl;
  }

  url(path: string, query?: Query): string {
    const url = new URL(this.config.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.append(key, String(value));
    }
    return url.toString();
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions<T> = {}): Promise<ApiResponse<T>> {
    const upper = method.toUpperCase();
    const url = this.url(path, options.query);
    const idempotent = options.idempotent ?? isIdempotent(upper, path);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.options.userAgent };
    const auth = this.authorization();
    if (auth) headers.authorization = auth;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
    const displayPath = new URL(url).pathname + new URL(url).search;
    const started = performance.now();

    for (let attempt = 0; ; attempt++) {
      this.trace(`→ ${upper} ${url}${attempt ? ` (attempt ${attempt + 1})` : ''}`);
      if (attempt === 0) {
        for (const [name, value] of Object.entries(headers)) {
          this.trace(`  ${name}: ${name === 'authorization' ? `${value.split(' ')[0]} [redacted]` : value}`);
        }
      }
      const attemptStarted = performance.now();
      let status: number;
      let responseHeaders: Record<string, string | string[] | undefined>;
      let text: string;
      let bytes: number;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.options.timeoutMs);
      try {
        // undici's own limits (300 s by default) would cut a longer --timeout short, as "cannot reach".
        const undiciTimeout = this.options.timeoutMs + 1_000;
        const response = await request(url, {
          method: upper as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher: this.dispatcher,
          signal: controller.signal,
          headersTimeout: undiciTimeout,
          bodyTimeout: undiciTimeout,
        });
        status = response.statusCode;
        responseHeaders = response.headers;
        const ok = status >= 200 && status < 300;
        const received = await readBounded(response.body, ok ? this.limits.maxResponseBytes : MAX_ERROR_BODY_BYTES, headerValue(responseHeaders['content-length']), !ok, status);
        if (ok) await options.onBody?.(received);
        text = received.toString('utf8');
        bytes = received.length;
      } catch (error) {
        const elapsed = Math.round(performance.now() - attemptStarted);
        if (error instanceof BodyTooLarge) {
          controller.abort();
          this.trace(`← body over ${this.limits.maxResponseBytes} bytes after ${elapsed} ms; stopped reading`);
          throw tooLarge(upper, displayPath, this.limits.maxResponseBytes, error);
        }
        if (timedOut) {
          this.trace(`← timeout after ${elapsed} ms`);
          throw new NetworkError(`${upper} ${displayPath}: no answer from ${this.config.baseUrl} within ${this.options.timeoutMs} ms`, {
            code: 'timeout',
            hint: 'The server is slow or unreachable. Raise the limit with --timeout <ms>, or check the server with: llmobs health',
          });
        }
        const code = errorCode(error);
        this.trace(`← ${code ?? 'error'}: ${errorText(error)} after ${elapsed} ms`);
        const decision = this.retryDecision(attempt, idempotent, { errorCode: code });
        if (decision.retry) {
          await this.wait(attempt, decision.delayMs, decision.reason);
          continue;
        }
        const viaProxy = this.proxy?.proxy ? ` through the proxy ${this.proxy.proxy} ($${this.proxy.variable})` : '';
        const proxyFault = this.proxy ? proxyFailure(this.proxy, code, errorText(error), this.config.baseUrl) : undefined;
        throw new NetworkError(`${upper} ${displayPath}: cannot reach ${this.config.baseUrl}${viaProxy}: ${errorText(error)}${attempt ? ` (after ${attempt + 1} attempts)` : ''}`, {
          code: 'network',
          hint: proxyFault ? `${proxyFault.summary[0]!.toUpperCase()}${proxyFault.summary.slice(1)}. ${proxyFault.fix}` : networkHint(code, this.config.baseUrl, idempotent),
          cause: error,
        });
      } finally {
        clearTimeout(timer);
      }

      const statusText = STATUS_CODES[status] ?? '';
      const contentType = headerValue(responseHeaders['content-type']);
      this.trace(`← ${status} ${statusText} (${Math.round(performance.now() - attemptStarted)} ms, ${bytes} bytes)`);

      if (status >= 200 && status < 300) {
        return {
          status,
          headers: responseHeaders,
          data: this.parseSuccess(upper, displayPath, status, text, responseHeaders, options.schema, options.elements),
          durationMs: Math.round(performance.now() - started),
          attempts: attempt + 1,
          bytes,
        };
      }

      const retryAfter = headerValue(responseHeaders['retry-after']);
      const decision = this.retryDecision(attempt, idempotent, {
        status,
        retryAfter,
        bodyRetryAfterSeconds: status === 429 ? parseErrorBody(text).retryAfterSeconds : undefined,
      });
      if (decision.retry) {
        await this.wait(attempt, decision.delayMs, decision.reason);
        continue;
      }
      if (decision.reason) this.trace(`  not retried: ${decision.reason}`);
      throw errorForResponse(
        {
          method: upper,
          path: displayPath,
          status,
          statusText,
          contentType,
          bodyText: text,
          attempts: attempt + 1,
          retryAfterMs: decision.waitMs ?? parseRetryAfter(retryAfter, this.options.now()),
          location: headerValue(responseHeaders['location']),
          contentEncoding: compressed(responseHeaders),
        },
        this.config,
      );
    }
  }

  /** Every item of a page-based list (`meta.page` / `meta.totalPages`), in server order. */
  async getAllPages<T>(path: string, itemSchema: z.ZodType<T>, query: Query = {}, pageSize = 100): Promise<T[]> {
    const schema = pageSchema(itemSchema);
    return this.collectPages(
      path,
      query,
      (data) => {
        const page = schema.parse(data) as Page<T>;
        return { items: page.data, totalPages: page.meta.totalPages, limit: page.meta.limit };
      },
      { pageSize },
    );
  }

  /**
   * Follows `page=1, 2, ...` and gathers the items, without trusting the server to end it: it
   * stops at an empty page, at a page shorter than the page size, at the announced page count,
   * and fails (rather than returning part of the list) at `maxPages` pages, at `maxListingBytes`
   * bytes, or when the server answers the same page twice. `read` extracts a page's items.
   */
  async collectPages<T>(
    path: string,
    query: Query,
    read: PageReader<T>,
    options: {
      startPage?: number;
      pageSize?: number;
      headers?: Record<string, string>;
      /** Sees every page's status and headers (llmobs api --paginate --include). */
      onResponse?: (status: number, headers: Record<string, string | string[] | undefined>) => void;
    } = {},
  ): Promise<T[]> {
    const items: T[] = [];
    let total = 0;
    let previous: string | undefined;
    const asked = Number(options.pageSize ?? query.limit);
    const requested = Number.isInteger(asked) && asked > 0 ? asked : undefined;
    for (let page = options.startPage ?? 1, count = 1; ; page++, count++) {
      const pageQuery = options.pageSize === undefined ? { ...query, page } : { ...query, page, limit: options.pageSize };
      const response = await this.request('GET', path, { query: pageQuery, headers: options.headers });
      let content: PageContent<T>;
      try {
        content = read(response.data);
      } catch (error) {
        if (error instanceof Error && error.name === 'ZodError') {
          throw errorForBadResponse('GET', path, response.status, (error as z.ZodError).issues.slice(0, 5).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; '));
        }
        throw error;
      }
      options.onResponse?.(response.status, response.headers);
      total += response.bytes;
      if (total > this.limits.maxListingBytes) {
        throw new ApiError(`the pages of GET ${path} add up to more than ${mb(this.limits.maxListingBytes)} (the limit for one listing); stopped after page ${page}`, {
          status: response.status,
          method: 'GET',
          path,
          hint: `Filter the listing, or raise the limit with ${MAX_RESPONSE_ENV} (now ${mb(this.limits.maxResponseBytes)} per answer, 8 times that per listing).`,
        }, 5, 'response_too_large');
      }
      const fingerprint = content.items.length > 0 ? `${content.items.length}:${JSON.stringify(content.items[0])}:${JSON.stringify(content.items[content.items.length - 1])}` : '';
      if (previous !== undefined && fingerprint !== '' && fingerprint === previous) {
        throw new ApiError(`GET ${path} answered page ${page} with the same items as page ${page - 1}; the server is not paging`, {
          status: response.status,
          method: 'GET',
          path,
          hint: 'Check the base URL: a proxy or an incompatible server ignores the page parameter.',
        }, 5, 'bad_response');
      }
      previous = fingerprint;
      // One by one: a spread of a page of some 150,000 items overflows the stack.
      for (const item of content.items) items.push(item);
      // The smaller of the size asked for and the size the server says it applied.
      const pageSize = content.limit !== undefined && requested !== undefined ? Math.min(content.limit, requested) : (content.limit ?? requested);
      const announced = content.totalPages;
      const short = pageSize !== undefined && pageSize > 0 && content.items.length < pageSize;
      if (content.items.length === 0 || short || announced === undefined || !(page < announced)) return items;
      if (count >= this.limits.maxPages) {
        throw new ApiError(`GET ${path} has more than ${this.limits.maxPages} pages (the server announces ${Number.isFinite(announced) ? announced : 'no end'}); stopped without a partial result`, {
          status: response.status,
          method: 'GET',
          path,
          hint: `Raise the limit with --max-pages <n> if the listing really is that long, or filter it.`,
        }, 5, 'too_many_pages');
      }
    }
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private authorization(): string | undefined {
    const { auth } = this.config;
    if (auth.type === 'basic') return `Basic ${Buffer.from(`${auth.publicKey}:${auth.secretKey}`).toString('base64')}`;
    if (auth.type === 'bearer') return `Bearer ${auth.apiKey}`;
    return undefined;
  }

  private parseSuccess<T>(method: string, path: string, status: number, text: string, headers: Record<string, string | string[] | undefined>, schema: z.ZodType<T> | undefined, elements?: MemberElements): T {
    const contentType = headerValue(headers['content-type']);
    if (text.trim() === '') {
      if (schema) {
        const empty = schema.safeParse(undefined);
        if (empty.success) return empty.data;
        throw errorForBadResponse(method, path, status, 'empty body');
      }
      return undefined as T;
    }
    if (jsonTextDepth(text, MAX_JSON_DEPTH, elements) > MAX_JSON_DEPTH) {
      throw errorForBadResponse(method, path, status, `JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const encoding = compressed(headers);
      throw errorForBadResponse(method, path, status, encoding ? `a body compressed with ${encoding}, which llmobs did not ask for (a proxy may be rewriting answers)` : `not JSON (${describeNonJson(text, contentType)})`);
    }
    if (!schema) return json as T;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
      throw errorForBadResponse(method, path, status, issues.join('; '));
    }
    return parsed.data;
  }

  private retryDecision(attempt: number, idempotent: boolean, outcome: Pick<RetryInput, 'status' | 'errorCode' | 'retryAfter' | 'bodyRetryAfterSeconds'>) {
    return decideRetry({
      ...outcome,
      attempt,
      maxRetries: this.options.retries,
      idempotent,
      baseMs: this.options.retryBaseMs,
      now: this.options.now(),
      random: this.options.random,
    });
  }

  private async wait(attempt: number, delayMs: number, reason: string): Promise<void> {
    this.trace(`  retry ${attempt + 1}/${this.options.retries} in ${delayMs} ms (${reason})`);
    this.onRetryWait?.({ attempt: attempt + 1, retries: this.options.retries, delayMs, reason });
    await this.options.sleep(delayMs);
  }

  private trace(line: string): void {
    this.options.trace?.(line);
  }
}

export const MAX_RESPONSE_ENV = 'LLMOBS_MAX_RESPONSE_MB';

const mb = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function tooLarge(method: string, path: string, limit: number, error: BodyTooLarge): ApiError {
  const size = error.declared !== undefined ? ` (${mb(error.declared)} announced)` : '';
  return new ApiError(`the answer to ${method} ${path} is larger than ${mb(limit)}${size}; llmobs stopped reading it`, {
    status: error.status,
    method,
    path,
    hint: `Ask for less (smaller pages with --limit, or a filter), or raise the limit with ${MAX_RESPONSE_ENV}=<megabytes> (default ${DEFAULT_MAX_RESPONSE_MB}).`,
  }, 5, 'response_too_large');
}

/**
 * Reads a body chunk by chunk up to `limit` bytes. Over the limit: an error (a success body) or
 * the bytes read so far (an error body, which is only shown). A declared length over the limit
 * stops before reading anything.
 */
async function readBounded(body: Dispatcher.ResponseData['body'], limit: number, contentLength: string | undefined, truncate: boolean, status: number): Promise<Buffer> {
  const declared = contentLength !== undefined && /^\d+$/.test(contentLength) ? Number(contentLength) : undefined;
  if (declared !== undefined && declared > limit && !truncate) {
    body.destroy();
    throw new BodyTooLarge(status, declared);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (bytes + buffer.length > limit) {
      if (!truncate) {
        body.destroy();
        throw new BodyTooLarge(status, declared);
      }
      chunks.push(buffer.subarray(0, limit - bytes));
      bytes = limit;
      body.destroy();
      break;
    }
    chunks.push(buffer);
    bytes += buffer.length;
  }
  return Buffer.concat(chunks, bytes);
}

function createDispatcher(env: Record<string, string | undefined>, timeoutMs: number): Dispatcher {
  const pick = (...names: string[]) => names.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  const httpProxy = pick('HTTP_PROXY', 'http_proxy');
  const httpsProxy = pick('HTTPS_PROXY', 'https_proxy');
  const connect = { timeout: Math.min(timeoutMs, 30_000) };
  if (httpProxy || httpsProxy) {
    return new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy: pick('NO_PROXY', 'no_proxy'), keepAliveTimeout: 4_000, connect });
  }
  return new Agent({ keepAliveTimeout: 4_000, connect });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The Content-Encoding of a compressed body (llmobs sends no Accept-Encoding, so asks for none). */
function compressed(headers: Record<string, string | string[] | undefined>): string | undefined {
  const encoding = headerValue(headers['content-encoding'])?.trim().toLowerCase();
  return encoding && encoding !== 'identity' ? encoding : undefined;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_REQ_ABORTED') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    if (current.message && !parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  return parts.join(': ') || String(error);
}

function networkHint(code: string | undefined, baseUrl: string, idempotent: boolean): string {
  const notRetried = idempotent ? '' : ' This request was not retried because repeating it could create a duplicate.';
  switch (code) {
    case 'ECONNREFUSED':
      return `Nothing is listening at ${baseUrl}. Is the server running and the address right?${notRetried}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host name in ${baseUrl} cannot be resolved. Check the address and your DNS or proxy settings.`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'The server\'s TLS certificate was not accepted. For a private CA set NODE_EXTRA_CA_CERTS.';
    default:
      return `The connection to ${baseUrl} failed. Check the network, proxy settings (HTTPS_PROXY, NO_PROXY) and the server.${notRetried}`;
  }
}

/** Warns when credentials would travel in clear text to a host that is not this machine. */
export function warnIfInsecure(config: ResolvedConfig, warn: (message: string) => void): void {
  if (config.auth.type === 'none') return;
  const url = new URL(config.baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    warn(`credentials are sent over plain http to ${url.host}; anyone on the network path can read them. Use https.`);
  }
}
