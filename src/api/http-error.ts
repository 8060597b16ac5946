// Turns a non-2xx answer into a typed error that says what happened and what to do next.
import {
  ApiError,
  type ApiErrorInit,
  ApiNotFoundError,
  AuthError,
  type CliError,
  RateLimitError,
} from '../errors.js';
import { maskKey } from '../config/mask.js';
import { jsonTextDepth } from '../core/json-depth.js';
import { type ResolvedConfig, sourceText } from '../config/resolve.js';

export interface FailedResponse {
  method: string;
  path: string;
  status: number;
  statusText: string;
  contentType: string | undefined;
  bodyText: string;
  attempts: number;
  retryAfterMs?: number | undefined;
  /** The Location header of a redirect. */
  location?: string | undefined;
  /** A Content-Encoding other than identity: the body is compressed, and llmobs asks for none. */
  contentEncoding?: string | undefined;
}

interface ZodIssueLike {
  path?: unknown;
  message?: unknown;
}

export interface ParsedErrorBody {
  json: boolean;
  message: string | undefined;
  issues: string[];
  retryAfterSeconds: number | undefined;
}

export function parseErrorBody(bodyText: string): ParsedErrorBody {
  let body: unknown;
  // Deeply nested "JSON" is shown as text: formatting its issues would recurse.
  if (jsonTextDepth(bodyText, 32) > 32) return { json: false, message: undefined, issues: [], retryAfterSeconds: undefined };
  try {
    body = JSON.parse(bodyText);
  } catch {
    return { json: false, message: undefined, issues: [], retryAfterSeconds: undefined };
  }
  if (typeof body !== 'object' || body === null) {
    return { json: true, message: typeof body === 'string' ? body : undefined, issues: [], retryAfterSeconds: undefined };
  }
  const record = body as Record<string, unknown>;
  // Health answers carry their reason in `status` rather than `message`.
  const message =
    typeof record.message === 'string' ? record.message : typeof record.status === 'string' ? record.status : undefined;
  const issues: string[] = [];
  // Zod failures put the issue list under `error` (request data) or `errors` (ingestion).
  for (const key of ['error', 'errors']) {
    const list = record[key];
    if (Array.isArray(list)) {
      for (const item of list) issues.push(formatIssue(item));
    }
  }
  const details = record.details as Record<string, unknown> | undefined;
  const retryAfterSeconds = typeof details?.retryAfterSeconds === 'number' ? details.retryAfterSeconds : undefined;
  return { json: true, message, issues, retryAfterSeconds };
}

function formatIssue(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null) {
    const issue = item as ZodIssueLike;
    const path = Array.isArray(issue.path) && issue.path.length ? issue.path.join('.') : '(body)';
    return `${path}: ${typeof issue.message === 'string' ? issue.message : JSON.stringify(item)}`;
  }
  return JSON.stringify(item);
}

/** A short human description of an HTML or text body (title, or the first words). */
export function describeNonJson(bodyText: string, contentType: string | undefined): string {
  const type = (contentType ?? 'no content type').split(';')[0]!.trim();
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(bodyText)?.[1]?.trim();
  const text = (title ?? bodyText.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  const snippet = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return snippet ? `${type}: "${snippet}"` : `${type}, empty body`;
}

export function errorForResponse(failure: FailedResponse, config: ResolvedConfig): CliError {
  const { method, path, status } = failure;
  const parsed = parseErrorBody(failure.bodyText);
  const head = `${status}${failure.statusText ? ` ${failure.statusText}` : ''} from ${method} ${path}`;
  let message: string;
  if (status >= 300 && status < 400) {
    // undici does not follow redirects, so the keys never go to the other address unasked.
    const to = failure.location ? `redirects to ${failure.location}` : 'is a redirect without a Location';
    const init: ApiErrorInit = { status, method, path };
    let origin: string | undefined;
    try {
      origin = failure.location ? new URL(failure.location, config.baseUrl).origin : undefined;
    } catch {
      origin = undefined;
    }
    init.hint = `llmobs does not follow redirects, so that the keys are never sent to an address you did not choose. If ${origin ?? 'the new address'} is the right server, use it as the base URL (--base-url or the profile).`;
    return new ApiError(`${head}: the server ${to}`, init);
  }
  if (!parsed.json) {
    message = `${head}: the server answered with ${failure.contentEncoding ? `a body compressed with ${failure.contentEncoding}, which llmobs did not ask for,` : describeNonJson(failure.bodyText, failure.contentType)} instead of JSON`;
  } else {
    message = parsed.message ? `${head}: ${parsed.message}` : head;
    if (parsed.issues.length) message += `\n${parsed.issues.map((issue) => `  - ${issue}`).join('\n')}`;
  }
  if (failure.attempts > 1) message += ` (after ${failure.attempts} attempts)`;

  const init: ApiErrorInit = { status, method, path, serverMessage: parsed.message, details: parsed.issues.length ? parsed.issues : undefined };
  const host = config.baseUrl;

  if (!parsed.json && status !== 401 && status !== 403 && status !== 429) {
    init.hint = `Something other than the Langfuse API answered (a proxy, load balancer or web page). Check the base URL (${host}) and proxy settings${status >= 500 ? ', or try again later' : ''}.`;
  }

  if (status === 401) {
    return new AuthError(message, { ...init, hint: authHint(config) });
  }
  if (status === 403) {
    return new AuthError(message, { ...init, hint: forbiddenHint(parsed.message, config) });
  }
  if (status === 404) {
    if (!parsed.json || !/not found/i.test(parsed.message ?? '')) {
      init.hint ??= `Check that ${host} is a Langfuse server (the address without /api/public) and that it supports this endpoint.`;
    }
    return new ApiNotFoundError(message, init);
  }
  if (status === 429) {
    const wait = failure.retryAfterMs ?? (parsed.retryAfterSeconds !== undefined ? parsed.retryAfterSeconds * 1000 : undefined);
    const when = wait !== undefined && Number.isFinite(wait) && wait >= 0 ? `Wait ${describeWait(wait)} and try again` : 'Wait and try again';
    return new RateLimitError(message, {
      ...init,
      hint: `${when}, or allow more retries with --retries. Langfuse Cloud limits the public API per organization and plan (hobby: 30 requests/min).`,
    });
  }
  if (status >= 500) {
    init.hint ??= `The server failed. Try again later; if it keeps failing, check the server's logs or status page.`;
  } else if (status === 405) {
    init.hint ??= `This server does not accept ${method} on this path; it may be an older Langfuse version.`;
  } else if (status === 413) {
    init.hint ??= 'The request body is larger than the server accepts.';
  } else if (status === 400 && !init.hint) {
    init.hint = 'The server rejected the request data; fix the fields named above.';
  }
  return new ApiError(message, init);
}

/** A wait in the largest unit that keeps it readable ("40 s", "15 min", "3 hours", "365 days"). */
export function describeWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.ceil(seconds / 3600)} hours`;
  return `${Math.ceil(seconds / 86400)} days`;
}

export function authHint(config: ResolvedConfig): string {
  const who = describeCredentials(config);
  const lines = [
    `Sent to ${config.baseUrl} (from ${sourceText(config.baseUrlSource)}) with ${who}.`,
    'Langfuse keys belong to one project in one region: EU keys (cloud.langfuse.com) are rejected by the US host (us.cloud.langfuse.com), and so on for the JP and HIPAA regions.',
  ];
  if (config.auth.type === 'bearer') {
    lines.push('Langfuse servers authenticate with Basic auth (public key + secret key); add the key pair with: llmobs profile add <name>');
  }
  for (const note of config.notes) lines.push(`Note: ${note}.`);
  lines.push('Check with: llmobs doctor (it finds the region the key belongs to), or see the settings in effect with: llmobs profile show');
  return lines.join('\n');
}

function forbiddenHint(serverMessage: string | undefined, config: ResolvedConfig): string {
  if (/organi[sz]ation key/i.test(serverMessage ?? '')) {
    return "This looks like an organization-scoped key. Project commands need a project API key: create one in the project's Settings > API Keys.";
  }
  if (config.auth.type === 'bearer' || /basic auth/i.test(serverMessage ?? '')) {
    return 'This endpoint needs Basic auth with the project\'s public and secret key (llmobs profile add <name>).';
  }
  return `The key is valid but not allowed to do this (${describeCredentials(config)}).`;
}

function describeCredentials(config: ResolvedConfig): string {
  const origin = config.credentialsFrom ?? 'no stored credentials';
  switch (config.auth.type) {
    case 'basic':
      return `${origin} (public key ${maskKey(config.auth.publicKey)})`;
    case 'bearer':
      return `${origin} (Bearer key ${maskKey(config.auth.apiKey)})`;
    case 'none':
      return 'no credentials';
  }
}

export function errorForBadResponse(method: string, path: string, status: number, problem: string): ApiError {
  return new ApiError(`unexpected answer from ${method} ${path} (${status}): ${problem}`, {
    status,
    method,
    path,
    hint: 'The server answered in a shape this version of llmobs does not understand; check the base URL and the server version (llmobs health).',
  }, 5, 'bad_response');
}
