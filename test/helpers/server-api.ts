// Calls the local server's API over HTTP with its key pair, checking each request and each 2xx
// answer against the Langfuse contract.
import { expect } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { checkRequest, checkResponse } from './contract.js';

export interface Answer {
  status: number;
  body: any;
}

export interface CallOptions {
  /** An Authorization header; null sends none. Default: Basic with the target's keys. */
  auth?: string | null;
  target?: RunningServer;
  /** Skip the contract checks (for requests the contract refuses on purpose). */
  unchecked?: boolean;
}

export const basicAuth = (server: RunningServer) => `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;

/** A `call(method, path, body?, options?)` that goes to `defaultTarget()` unless told otherwise. */
export function apiCaller(defaultTarget: () => RunningServer) {
  return async function call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Answer> {
    const target = options.target ?? defaultTarget();
    const auth = options.auth === undefined ? basicAuth(target) : options.auth;
    const response = await fetch(target.url + path, {
      method,
      headers: { ...(auth ? { authorization: auth } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // The framework's own errors (413 "Body exceeded 1mb limit", 400 "Invalid JSON") are plain text.
    const answer = { status: response.status, body: text ? parseOrText(text) : undefined };
    if (!options.unchecked) {
      expect(checkRequest(method, path, body)).toEqual([]);
      if (answer.status < 300) expect(checkResponse(method, path, answer.status, answer.body)).toEqual([]);
    }
    return answer;
  };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Every page of a cursor-paged list, by cursor: `page` asks for one (the query with `&cursor=…`
 * once there is one); at most 100 pages, so that a cursor that never ends fails the test.
 */
export async function walkByCursor<P extends { meta: { cursor?: string } }>(query: string, page: (query: string) => Promise<P>): Promise<P[]> {
  const pages: P[] = [];
  let cursor: string | undefined;
  do {
    const one = await page(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pages.push(one);
    cursor = one.meta.cursor;
  } while (cursor && pages.length < 100);
  return pages;
}
