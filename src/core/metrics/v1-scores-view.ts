// The v1 metrics API's score views (packages/shared/src/features/query/dataModel.ts,
// `scoresNumericViewBase`, `scoresCategoricalViewBase`, `scoresBooleanViewBase` with version
// "v1"): `scoreBaseDimensions`, read from the score's trace and observation through JOINs of the
// v3 tables (each in the query's range), then the score's own dimensions without
// high-cardinality marks. `sessionId` is the trace's here (v2 reads the score's).
import type { MetricsScore } from './scores-view.js';
import { metadataText } from './scores-view.js';
import type { V1Dimension, V1Measure, V1View } from './v1-declaration.js';

/** A row of a v1 score view: a score, and its trace's and observation's fields when they join (in range), else null. */
export interface V1ScoreEntity {
  score: MetricsScore;
  trace: { name: string | null; userId: string | null; sessionId: string | null; tags: readonly string[]; release: string | null; version: string | null } | null;
  observation: { name: string | null; providedModelName: string | null; promptName: string | null; promptVersion: number | null } | null;
}

type S = V1ScoreEntity;
const ofTrace = (read: (e: S) => unknown, type: V1Dimension<S>['type'] = 'string'): V1Dimension<S> => ({ read, type, relation: 'traces' });
const ofObservation = (read: (e: S) => unknown): V1Dimension<S> => ({ read, type: 'string', relation: 'observations' });
const own = (read: (e: S) => unknown): V1Dimension<S> => ({ read, type: 'string' });

const DIMENSIONS: Record<string, V1Dimension<S>> = {
  // The traces' and observations' name columns are String: '' when absent.
  traceName: ofTrace((e) => e.trace?.name ?? ''),
  tags: ofTrace((e) => e.trace?.tags ?? [], 'string[]'),
  userId: ofTrace((e) => e.trace?.userId ?? null),
  sessionId: ofTrace((e) => e.trace?.sessionId ?? null),
  traceRelease: ofTrace((e) => e.trace?.release ?? null),
  traceVersion: ofTrace((e) => e.trace?.version ?? null),
  observationName: ofObservation((e) => e.observation?.name ?? ''),
  observationModelName: ofObservation((e) => e.observation?.providedModelName ?? null),
  observationPromptName: ofObservation((e) => e.observation?.promptName ?? null),
  observationPromptVersion: ofObservation((e) => e.observation?.promptVersion ?? null),
  id: own((e) => e.score.id),
  environment: own((e) => e.score.environment),
  name: own((e) => e.score.name),
  evaluatorId: own((e) => metadataText(e, 'evaluator_id') || metadataText(e, 'job_configuration_id')),
  source: own((e) => e.score.source),
  dataType: own((e) => e.score.dataType),
  traceId: own((e) => e.score.traceId),
  configId: own((e) => e.score.configId),
  timestampMonth: own((e) => e.score.timestamp.slice(0, 7)),
  timestampDay: own((e) => e.score.timestamp.slice(0, 10)),
  observationId: own((e) => e.score.observationId),
};

// count(*) over the joined rows; any(value).
const count: V1Measure<S> = { inner: (_, joined) => joined, type: 'integer' };
const value: V1Measure<S> = { inner: (e) => e.score.value, type: 'number' };

function scoreView(name: V1View<S>['name'], dataTypes: readonly string[], own: Record<string, V1Dimension<S>>, measures: Record<string, V1Measure<S>>): V1View<S> {
  return {
    name,
    dimensions: { ...DIMENSIONS, ...own },
    measures,
    relations: { traces: (e) => (e.trace ? 1 : 0), observations: (e) => (e.observation ? 1 : 0) },
    timeDimension: 'timestamp',
    time: (e) => e.score.timestamp,
    metadata: (e) => e.score.metadata,
    segment: (e) => dataTypes.includes(e.score.dataType),
  };
}

export const V1_SCORES_NUMERIC_VIEW = scoreView('scores-numeric', ['NUMERIC', 'BOOLEAN'], { value: { read: (e) => e.score.value, type: 'number' } }, { count, value });
export const V1_SCORES_CATEGORICAL_VIEW = scoreView('scores-categorical', ['CATEGORICAL'], { stringValue: own((e) => e.score.stringValue) }, { count });
export const V1_SCORES_BOOLEAN_VIEW = scoreView('scores-boolean', ['BOOLEAN'], { booleanValue: { read: (e) => (e.score.value === null ? null : e.score.value !== 0), type: 'boolean' } }, { count, value });
