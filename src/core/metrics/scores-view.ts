// The metrics API's score views, as the service declares them for the v2 API
// (packages/shared/src/features/query/dataModel.ts, `scoresNumericViewBase`,
// `scoresCategoricalViewBase`, `scoresBooleanViewBase` with version "v2"): one row per score,
// with the fields of its trace (the trace's root event there) and of its observation.
// `scores-numeric` holds NUMERIC and BOOLEAN scores, the other two one data type each; the time
// dimension is the score's timestamp.
import type { Dimension, Measure, MetricsView, ViewName } from './declaration.js';
import { metadataValueText } from '../metadata.js';

/** The fields of a score the views read. */
export interface MetricsScore {
  id: string;
  /** ISO time. */
  timestamp: string;
  name: string;
  value: number | null;
  stringValue: string | null;
  dataType: string;
  source: string;
  environment: string;
  traceId: string | null;
  observationId: string | null;
  sessionId: string | null;
  datasetRunId: string | null;
  configId: string | null;
  metadata: Record<string, unknown>;
}

/** One row of a score view: a score, its trace's fields and its observation's (null when absent). */
export interface MetricsScoreRow {
  score: MetricsScore;
  trace: { name: string | null; userId: string | null; tags: readonly string[]; release: string | null; version: string | null } | null;
  observation: { name: string | null; providedModelName: string | null; promptName: string | null; promptVersion: number | null } | null;
}

type Row = MetricsScoreRow;

const string = (read: (row: Row) => unknown, highCardinality = false): Dimension<Row> => (highCardinality ? { read, type: 'string', highCardinality } : { read, type: 'string' });
const orNull = (text: string | null | undefined) => (text ? text : null);
/** A metadata value as the service's map holds it (text), '' when the key is absent. */
export const metadataText = (row: { score: MetricsScore }, key: string) => (Object.hasOwn(row.score.metadata, key) ? metadataValueText(row.score.metadata[key]) : '');

// scoresV2BaseDimensions and createScoreSpecificDimensions(…, isV2 = true).
const DIMENSIONS: Record<string, Dimension<Row>> = {
  sessionId: string((r) => r.score.sessionId, true),
  datasetRunId: string((r) => orNull(r.score.datasetRunId), true),
  traceName: string((r) => r.trace?.name ?? null),
  userId: string((r) => orNull(r.trace?.userId), true),
  tags: { read: (r) => r.trace?.tags ?? [], type: 'string[]' },
  traceRelease: string((r) => orNull(r.trace?.release)),
  traceVersion: string((r) => orNull(r.trace?.version)),
  observationName: string((r) => r.observation?.name ?? null),
  observationModelName: string((r) => orNull(r.observation?.providedModelName)),
  observationPromptName: string((r) => orNull(r.observation?.promptName)),
  observationPromptVersion: string((r) => r.observation?.promptVersion ?? null),
  // This server records no experiments.
  experimentName: string(() => null, true),
  experimentId: string(() => null, true),
  id: string((r) => r.score.id, true),
  environment: string((r) => r.score.environment),
  name: string((r) => r.score.name),
  // coalesce(nullIf(metadata['evaluator_id'], ''), metadata['job_configuration_id']): '' when neither is there.
  evaluatorId: string((r) => metadataText(r, 'evaluator_id') || metadataText(r, 'job_configuration_id'), true),
  source: string((r) => r.score.source),
  dataType: string((r) => r.score.dataType),
  traceId: string((r) => r.score.traceId, true),
  configId: string((r) => r.score.configId),
  timestampMonth: string((r) => r.score.timestamp.slice(0, 7)),
  timestampDay: string((r) => r.score.timestamp.slice(0, 10)),
  observationId: string((r) => r.score.observationId, true),
};

const count: Measure<Row> = { value: () => 1, type: 'integer' };
const value: Measure<Row> = { value: (r) => r.score.value, type: 'number' };

function scoreView(name: ViewName, dataTypes: readonly string[], own: Record<string, Dimension<Row>>, measures: Record<string, Measure<Row>>): MetricsView<Row> {
  return {
    name,
    dimensions: { ...DIMENSIONS, ...own },
    measures,
    timeDimension: 'timestamp',
    time: (r) => r.score.timestamp,
    metadata: (r) => r.score.metadata,
    segment: (r) => dataTypes.includes(r.score.dataType),
  };
}

export const SCORES_NUMERIC_VIEW = scoreView('scores-numeric', ['NUMERIC', 'BOOLEAN'], { value: { read: (r) => r.score.value, type: 'number' } }, { count, value });
export const SCORES_CATEGORICAL_VIEW = scoreView('scores-categorical', ['CATEGORICAL'], { stringValue: string((r) => r.score.stringValue) }, { count });
export const SCORES_BOOLEAN_VIEW = scoreView('scores-boolean', ['BOOLEAN'], { booleanValue: { read: (r) => (r.score.value === null ? null : r.score.value !== 0), type: 'boolean' } }, { count, value });
