// The score views of the metrics API v2 over score rows (packages/shared/src/features/query/
// dataModel.ts, scores*ViewBase("v2")): which scores each view holds, their dimensions and
// measures, and the boolean breakdown the service's test checks (web/src/__tests__/server/
// metrics-v2-api.servertest.ts, "should query boolean scores with true/false breakdowns").
import { describe, expect, it } from 'vitest';
import { type MetricsScore, type MetricsScoreRow, parseMetricsQuery, runMetricsQuery } from '../../../../src/core/metrics/index.js';
import { at } from './support/metrics-rows.js';

const HOUR = 3_600_000;

function scoreRow(score: Partial<MetricsScore> & { id: string }, parts: Partial<Omit<MetricsScoreRow, 'score'>> = {}): MetricsScoreRow {
  return {
    score: {
      timestamp: at(HOUR),
      name: 'quality',
      value: null,
      stringValue: null,
      dataType: 'NUMERIC',
      source: 'API',
      environment: 'default',
      traceId: 't1',
      observationId: null,
      sessionId: null,
      datasetRunId: null,
      configId: null,
      metadata: {},
      ...score,
    },
    trace: parts.trace ?? null,
    observation: parts.observation ?? null,
  };
}

const trace = { name: 'chat', userId: 'u1', tags: ['a'], release: 'r1', version: null };
const ROWS = [
  scoreRow({ id: 's1', name: 'ok', dataType: 'BOOLEAN', value: 1, stringValue: 'True' }, { trace }),
  scoreRow({ id: 's2', name: 'ok', dataType: 'BOOLEAN', value: 0, stringValue: 'False' }),
  scoreRow({ id: 's3', name: 'ok', dataType: 'BOOLEAN', value: 1, stringValue: 'True', metadata: { job_configuration_id: 'job-1' } }),
  scoreRow({ id: 's4', name: 'ok', value: 1 }),
  scoreRow({ id: 's5', value: 0.25, observationId: 'o1', timestamp: at(30 * HOUR) }, { trace, observation: { name: 'llm', providedModelName: 'gpt-4o', promptName: null, promptVersion: 2 } }),
  scoreRow({ id: 's6', name: 'label', dataType: 'CATEGORICAL', stringValue: 'good', metadata: { evaluator_id: 'ev-1' } }),
  scoreRow({ id: 's7', name: 'note', dataType: 'TEXT', stringValue: 'text' }),
];

const run = (query: Record<string, unknown>) =>
  runMetricsQuery(parseMetricsQuery(JSON.stringify({ fromTimestamp: at(0), toTimestamp: at(48 * HOUR), metrics: [{ measure: 'count', aggregation: 'count' }], ...query })), ROWS);

describe('the score views', () => {
  it('holds NUMERIC and BOOLEAN scores in scores-numeric, one data type in each of the others', () => {
    expect(run({ view: 'scores-numeric' })).toEqual([{ count_count: '5' }]);
    expect(run({ view: 'scores-boolean' })).toEqual([{ count_count: '3' }]);
    expect(run({ view: 'scores-categorical' })).toEqual([{ count_count: '1' }]);
  });

  it('breaks boolean scores down by their value, with the true-rate as the average value', () => {
    const query = { view: 'scores-boolean', dimensions: [{ field: 'booleanValue' }], metrics: [{ measure: 'count', aggregation: 'count' }, { measure: 'value', aggregation: 'avg' }] };
    expect(run(query)).toEqual([
      { booleanValue: true, count_count: '2', avg_value: 1 },
      { booleanValue: false, count_count: '1', avg_value: 0 },
    ]);
    const trueOnly = run({ ...query, dimensions: [], filters: [{ column: 'booleanValue', operator: '=', value: true, type: 'boolean' }] });
    expect(trueOnly).toEqual([{ count_count: '2', avg_value: 1 }]);
  });

  it('reads the trace, the observation and the score for its dimensions', () => {
    const numeric = run({
      view: 'scores-numeric',
      dimensions: [{ field: 'traceName' }, { field: 'userId' }, { field: 'observationModelName' }, { field: 'observationPromptVersion' }, { field: 'timestampDay' }],
      metrics: [{ measure: 'value', aggregation: 'sum' }],
      filters: [
        { column: 'value', type: 'number', operator: '<', value: 0.5 },
        { column: 'dataType', type: 'string', operator: '=', value: 'NUMERIC' },
      ],
      orderBy: [{ field: 'sum_value', direction: 'desc' }],
      config: { row_limit: 10 },
    });
    expect(numeric).toEqual([{ traceName: 'chat', userId: 'u1', observationModelName: 'gpt-4o', observationPromptVersion: 2, timestampDay: '2026-03-02', sum_value: 0.25 }]);
    // coalesce(nullIf(metadata['evaluator_id'], ''), metadata['job_configuration_id']): '' without either.
    const evaluators = run({ view: 'scores-boolean', dimensions: [{ field: 'evaluatorId' }], orderBy: [{ field: 'count_count', direction: 'desc' }], config: { row_limit: 10 } });
    expect(evaluators).toEqual([
      { evaluatorId: '', count_count: '2' },
      { evaluatorId: 'job-1', count_count: '1' },
    ]);
    expect(run({ view: 'scores-categorical', dimensions: [{ field: 'stringValue' }, { field: 'tags' }] })).toEqual([{ stringValue: 'good', tags: [], count_count: '1' }]);
  });

  it('filters on the score timestamp, its time dimension', () => {
    const late = run({ view: 'scores-numeric', filters: [{ column: 'timestamp', type: 'datetime', operator: '>', value: at(2 * HOUR) }] });
    expect(late).toEqual([{ count_count: '1' }]);
    expect(() => run({ view: 'scores-numeric', filters: [{ column: 'start_time', type: 'datetime', operator: '>', value: at(0) }] })).toThrow(/^Invalid filter column start_time\. Must be one of sessionId,.* or timestamp$/);
  });
});
