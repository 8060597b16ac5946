// The doctor check that says which Langfuse v4 write mode the server runs and what that means for
// the routes a client may use (src/api/write-mode-probe.ts finds it).
import type { ApiClient } from '../../api/client.js';
import type { WriteMode } from '../../api/write-mode.js';
import { detectWriteMode } from '../../api/write-mode-probe.js';
import { type Check, check } from './check.js';

const MEANING: Record<WriteMode, string[]> = {
  events_only: [
    'v3 routes answer 404: GET /api/public/traces, /observations, /sessions, /metrics, /v2/scores, dataset runs and run items',
    'POST /api/public/ingestion takes score and log events only: send traces and observations over OTLP (/api/public/otel/v1/traces)',
    'read with GET /api/public/v2/observations, /v2/metrics, /v3/scores, /experiments, /experiment-items',
  ],
  dual: ['the v3 routes and the v4 ones (/v2/observations, /v2/metrics, /experiments) all answer; ingestion takes every event type'],
  legacy: ['a v3 deployment: the v4 read routes (/v2/observations, /v2/metrics, /experiments, /experiment-items) answer 404'],
};

export async function checkWriteMode(open: ApiClient, authed: ApiClient | undefined, now: Date): Promise<Check> {
  const title = 'Write mode';
  const found = await detectWriteMode(open, authed, now);
  if (!found.mode) return check('write-mode', title, 'skip', `not known: ${found.how}`);
  return check('write-mode', title, 'ok', `${found.mode}: ${found.how}`, { details: MEANING[found.mode] });
}
