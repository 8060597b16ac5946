// Records as the local server's store keeps them, for the store's tests: a prompt of a project
// from before the database (import-state) and a minimal trace.
import type { PromptRecord, TraceRecord } from '../../src/server/records.js';

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
