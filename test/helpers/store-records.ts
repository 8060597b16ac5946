// Records as the local server's store keeps them, for the store's tests: a prompt of a project
// from before the database (import-state), a minimal trace and an empty observation.
import type { ObservationRecord, PromptRecord, TraceRecord } from '../../src/server/records.js';

export function promptRecord(overrides: Partial<PromptRecord>): PromptRecord {
  return {
    id: `id-${Math.random().toString(36).slice(2)}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    projectId: 'proj-old',
    createdBy: 'API',
    prompt: 'hello',
    name: 'greeting',
    version: 1,
    type: 'text',
    isActive: null,
    config: {},
    tags: [],
    labels: [],
    commitMessage: null,
    ...overrides,
  };
}

export function traceRecord(id: string): TraceRecord {
  return {
    id,
    projectId: 'p',
    timestamp: '2026-01-01T00:00:00.000Z',
    name: 'demo',
    userId: null,
    sessionId: null,
    release: null,
    version: null,
    environment: 'default',
    public: false,
    bookmarked: false,
    tags: [],
    metadata: {},
    input: null,
    output: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/**
 * A SPAN at level DEFAULT that started (and was written) at `time`, every other field empty, its
 * fields in the order ingestion builds them; `fields` replace any of them (and keep that order).
 */
export function observationRecord(id: string, projectId: string, time: string, fields: Partial<Record<keyof ObservationRecord, unknown>> = {}): ObservationRecord {
  return {
    id,
    projectId,
    traceId: null,
    parentObservationId: null,
    type: 'SPAN',
    name: null,
    environment: 'default',
    startTime: time,
    endTime: null,
    completionStartTime: null,
    level: 'DEFAULT',
    statusMessage: null,
    version: null,
    input: null,
    output: null,
    metadata: {},
    providedModelName: null,
    internalModelId: null,
    modelParameters: null,
    providedUsageDetails: {},
    providedCostDetails: {},
    usageDetails: {},
    costDetails: {},
    totalCost: null,
    usagePricingTierId: null,
    usagePricingTierName: null,
    promptId: null,
    promptName: null,
    promptVersion: null,
    createdAt: time,
    updatedAt: time,
    ...fields,
  } as ObservationRecord;
}
