import { describe, expect, it } from 'vitest';
import { SCORE_COLUMNS, scoreRow } from '../../../../src/core/blob-export/scores.js';

const base = { id: 's1', projectId: 'p', name: 'q', source: 'API', environment: 'default', timestamp: '2026-05-01T12:00:00.500Z', createdAt: '2026-05-01T12:00:01Z', updatedAt: '2026-05-01T12:00:01Z' };

describe('scoreRow', () => {
  it('has Langfuse\'s sixteen columns in order, times as ClickHouse writes them', () => {
    const row = scoreRow({ ...base, dataType: 'NUMERIC', value: 0.5, subject: { kind: 'trace', id: 't1' } });
    expect(Object.keys(row)).toEqual([...SCORE_COLUMNS]);
    expect(row).toMatchObject({ timestamp: '2026-05-01 12:00:00.500000', trace_id: 't1', observation_id: null, value: 0.5, string_value: null, comment: null });
  });

  it('takes what the score is about from its subject', () => {
    expect(scoreRow({ ...base, subject: { kind: 'observation', id: 'o1', traceId: 't1' } })).toMatchObject({ trace_id: 't1', observation_id: 'o1', session_id: null, dataset_run_id: null });
    expect(scoreRow({ ...base, subject: { kind: 'session', id: 'sess' } })).toMatchObject({ trace_id: null, session_id: 'sess' });
    expect(scoreRow({ ...base, subject: { kind: 'experiment', id: 'run' } })).toMatchObject({ dataset_run_id: 'run' });
    expect(scoreRow({ ...base })).toMatchObject({ trace_id: null, observation_id: null, session_id: null, dataset_run_id: null });
  });

  it('gives a boolean 1 or 0, and a category or text as string_value with no value', () => {
    expect(scoreRow({ ...base, dataType: 'BOOLEAN', value: true })).toMatchObject({ value: 1, string_value: null });
    expect(scoreRow({ ...base, dataType: 'BOOLEAN', value: false })).toMatchObject({ value: 0 });
    expect(scoreRow({ ...base, dataType: 'CATEGORICAL', value: 'good' })).toMatchObject({ value: null, string_value: 'good', data_type: 'CATEGORICAL' });
  });
});
