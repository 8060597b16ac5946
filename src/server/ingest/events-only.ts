// POST /api/public/ingestion in the events_only write mode (web/src/pages/api/public/ingestion.ts,
// filterBatchForEventsOnly): trace and observation events would land in the v3 tables that mode
// no longer reads, so each is refused on its own with a 400 in the 207 answer, and the rest of the
// batch (scores and SDK logs) is processed as in the other modes. The refusals come after the
// processed events' errors, as there.
import type { EventError } from './types.js';

const ALLOWED_TYPES = new Set(['score-create', 'sdk-log']);

const REMEDIATION = [
  'Upgrade the client or integration to a v4-compatible SDK or OTLP ingestion path.',
  'As a temporary migration bridge, set LANGFUSE_MIGRATION_V4_WRITE_MODE=dual on both the web and worker services and redeploy.',
  'Docs: https://langfuse.com/self-hosting/upgrade/upgrade-guides/upgrade-v3-to-v4',
].join(' ');

export interface EventsOnlySplit {
  accepted: unknown[];
  rejected: EventError[];
}

/** Splits a batch into the events events_only mode processes and the refusals of the others. */
export function splitForEventsOnly(batch: readonly unknown[]): EventsOnlySplit {
  const accepted: unknown[] = [];
  const rejected: EventError[] = [];
  for (const event of batch) {
    const object = typeof event === 'object' && event !== null ? (event as { id?: unknown; type?: unknown }) : undefined;
    const type = typeof object?.type === 'string' ? object.type : undefined;
    if (type !== undefined && ALLOWED_TYPES.has(type)) {
      accepted.push(event);
      continue;
    }
    rejected.push({
      id: typeof object?.id === 'string' ? object.id : 'unknown',
      status: 400,
      message: 'Event type not accepted',
      error: `Event type "${type ?? 'unknown'}" is not accepted by /api/public/ingestion when LANGFUSE_MIGRATION_V4_WRITE_MODE is events_only. This endpoint only accepts score and log events. ${REMEDIATION}`,
    });
  }
  return { accepted, rejected };
}
