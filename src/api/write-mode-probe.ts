// Which Langfuse v4 write mode a server runs, from what a client can see, in at most three
// requests: the mode the web app reports (no key needed), else the answers of a removed route and
// a v4-only route. Each step runs only when the ones before could not tell.
import { z } from 'zod';
import { ApiError, CliError } from '../errors.js';
import type { ApiClient } from './client.js';
import { EVENTS_ONLY_REMOVED_MESSAGE, TRACE_READ_CONFIG_PATH, V4_ONLY_MESSAGES, WRITE_MODES, type WriteMode } from './write-mode.js';

export interface WriteModeFinding {
  /** Undefined when the answers do not tell. */
  mode: WriteMode | undefined;
  /** How it was found, or why not. */
  how: string;
}

const TRACE_READ_CONFIG = z.object({ result: z.object({ data: z.object({ json: z.object({ v4WriteMode: z.enum(WRITE_MODES) }) }) }) });

/** The answer's status and Langfuse message when a request fails with one; undefined for success. */
async function refusal(send: () => Promise<unknown>): Promise<{ status: number; message: string | undefined } | undefined> {
  try {
    await send();
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.serverMessage };
    if (error instanceof CliError) return { status: 0, message: undefined };
    throw error;
  }
}

/**
 * `open` sends no key; `authed` (when there are credentials) sends the profile's. Servers older
 * than the write modes answer as `legacy` does where they answer at all.
 */
export async function detectWriteMode(open: ApiClient, authed: ApiClient | undefined, now: Date): Promise<WriteModeFinding> {
  try {
    const reported = await open.request('GET', TRACE_READ_CONFIG_PATH, { schema: TRACE_READ_CONFIG });
    return { mode: reported.data.result.data.json.v4WriteMode, how: `reported by the server at GET ${TRACE_READ_CONFIG_PATH}` };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
  }
  // events_only answers this 404 before looking at the key.
  const traces = await refusal(() => open.request('GET', '/api/public/traces', { query: { limit: 1 } }));
  if (traces?.status === 404 && traces.message === EVENTS_ONLY_REMOVED_MESSAGE) {
    return { mode: 'events_only', how: 'GET /api/public/traces answers the 404 of events_only mode' };
  }
  if (!authed) return { mode: undefined, how: 'the server does not report it, GET /api/public/traces is not removed, and without a key the v4 routes cannot be asked' };
  // A one-minute count: the v4 metrics route answers in dual mode and refuses in legacy mode.
  const query = {
    view: 'observations',
    metrics: [{ measure: 'count', aggregation: 'count' }],
    fromTimestamp: new Date(now.getTime() - 60_000).toISOString(),
    toTimestamp: now.toISOString(),
  };
  const metrics = await refusal(() => authed.request('GET', '/api/public/v2/metrics', { query: { query: JSON.stringify(query) } }));
  if (!metrics) return { mode: 'dual', how: 'GET /api/public/traces is not removed and GET /api/public/v2/metrics answers' };
  if (metrics.status === 404 && metrics.message === V4_ONLY_MESSAGES.metrics) {
    return { mode: 'legacy', how: 'GET /api/public/v2/metrics answers that it needs a v4 write mode' };
  }
  return { mode: undefined, how: `the server does not report it, and GET /api/public/v2/metrics answered ${metrics.status || 'nothing'}` };
}
