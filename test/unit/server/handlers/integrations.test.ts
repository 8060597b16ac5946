import { describe, expect, it } from 'vitest';
import { syncStatus } from '../../../../src/server/handlers/integrations.js';
import type { BlobIntegrationRecord } from '../../../../src/server/store/integrations.js';

const now = new Date('2026-05-01T12:00:00Z');
const base = { enabled: true, lastError: null, runStartedAt: null, nextSyncAt: null, lastSyncAt: null } as unknown as BlobIntegrationRecord;
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

describe('syncStatus (deriveSyncStatus)', () => {
  it('goes disabled, error, running (under 2 h), queued, idle, up_to_date, in that order', () => {
    expect(syncStatus({ ...base, enabled: false, lastError: 'x' }, now)).toBe('disabled');
    expect(syncStatus({ ...base, lastError: 'x', runStartedAt: at(-1) }, now)).toBe('error');
    expect(syncStatus({ ...base, runStartedAt: at(-119), nextSyncAt: at(-5) }, now)).toBe('running');
    expect(syncStatus({ ...base, runStartedAt: at(-121), nextSyncAt: at(-5) }, now)).toBe('queued');
    expect(syncStatus({ ...base, nextSyncAt: at(0) }, now)).toBe('queued');
    expect(syncStatus({ ...base, nextSyncAt: at(5) }, now)).toBe('idle');
    expect(syncStatus({ ...base, nextSyncAt: at(5), lastSyncAt: at(-20) }, now)).toBe('up_to_date');
  });
});
