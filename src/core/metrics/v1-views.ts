// The v1 metrics API's `traces` and `observations` views (packages/shared/src/features/query/
// dataModel.ts, `traceView` and `observationsView`, viewDeclarations.v1): over the v3 tables,
// with no high-cardinality dimensions, and measures computed per base row over its joined rows
// (v1-declaration.ts). The v3 tables' String columns (a trace's or observation's name, its trace
// id, type, level, environment) are never NULL there: a missing one reads ''. Not here: what this
// server does not record (tool definitions and calls, so toolNames and calledToolNames hold no
// element and toolDefinitions and toolCalls are NULL).
import type { V1Dimension, V1Measure, V1View } from './v1-declaration.js';
import { OBSERVATIONS_VIEW, type MetricsRow, millisBetween } from './view.js';

/** A trace's fields the views read. */
export interface V1Trace {
  id: string;
  /** ISO time. */
  timestamp: string;
  name: string | null;
  userId: string | null;
  sessionId: string | null;
  release: string | null;
  version: string | null;
  environment: string;
  tags: readonly string[];
  metadata: Record<string, unknown>;
}

/** A row of the traces view: a trace, and aggregates of its observations and scores in the query's range. */
export interface V1TraceEntity {
  trace: V1Trace;
  observations: {
    count: number;
    /** The earliest start and latest end (ISO; null when none has ended). */
    firstStart: string | null;
    lastEnd: string | null;
    /** Sum of each observation's usage "total". */
    totalTokens: number;
    /** Sum of the costs; null when none has one. */
    totalCost: number | null;
  };
  scores: number;
}

/**
 * A row of the observations view: an observation with its trace's fields, `traceJoined` when the
 * trace's timestamp is in the query's range (the trace JOIN's condition), and its scores in range.
 */
export interface V1ObservationEntity extends MetricsRow {
  traceJoined: boolean;
  scores: number;
}

const text = (value: string | null | undefined) => value ?? '';

type T = V1TraceEntity;
const traceDim = (read: (e: T) => unknown, type: V1Dimension<T>['type'] = 'string'): V1Dimension<T> => ({ read, type });
const ofObservations = (inner: V1Measure<T>['inner'], type: V1Measure<T>['type']): V1Measure<T> => ({ inner, type, relation: 'observations' });
/** How many times each observation is joined: once per score when scores are joined too. */
const perObservation = (e: T, joined: number) => (e.observations.count ? joined / e.observations.count : 0);

export const V1_TRACES_VIEW: V1View<T> = {
  name: 'traces',
  dimensions: {
    id: traceDim((e) => e.trace.id),
    name: traceDim((e) => text(e.trace.name)),
    tags: traceDim((e) => e.trace.tags, 'string[]'),
    userId: traceDim((e) => e.trace.userId),
    sessionId: traceDim((e) => e.trace.sessionId),
    release: traceDim((e) => e.trace.release),
    version: traceDim((e) => e.trace.version),
    environment: traceDim((e) => e.trace.environment),
    timestampMonth: traceDim((e) => e.trace.timestamp.slice(0, 7)),
  },
  measures: {
    // count(*) over the joined rows.
    count: { inner: (_, joined) => joined, type: 'integer' },
    observationsCount: ofObservations((e) => e.observations.count, 'integer'),
    scoresCount: { inner: (e) => e.scores, type: 'integer', relation: 'scores' },
    // uniq(traces.user_id): NULL is not counted.
    uniqueUserIds: { inner: (e) => (e.trace.userId === null ? 0 : 1), type: 'integer' },
    uniqueSessionIds: { inner: (e) => (e.trace.sessionId === null ? 0 : 1), type: 'integer' },
    latency: ofObservations((e) => millisBetween(e.observations.firstStart, e.observations.lastEnd), 'integer'),
    totalTokens: ofObservations((e, joined) => e.observations.totalTokens * perObservation(e, joined), 'integer'),
    totalCost: ofObservations((e, joined) => (e.observations.totalCost === null ? null : e.observations.totalCost * perObservation(e, joined)), 'decimal'),
  },
  relations: {
    observations: (e) => e.observations.count,
    scores: (e) => e.scores,
  },
  timeDimension: 'timestamp',
  time: (e) => e.trace.timestamp,
  metadata: (e) => e.trace.metadata,
};

type O = V1ObservationEntity;
const own = (read: (e: O) => unknown): V1Dimension<O> => ({ read, type: 'string' });
const ofTrace = (read: (e: O) => unknown, type: V1Dimension<O>['type'] = 'string'): V1Dimension<O> => ({ read, type, relation: 'traces' });
/** A v2 measure of one observation (the v1 inner query's any(...) reads the same). */
const single = (name: string): V1Measure<O> => {
  const measure = OBSERVATIONS_VIEW.measures[name]!;
  return { inner: (e) => measure.value(e), type: measure.type, nullable: measure.nullable };
};
/** A v2 measure summed over the joined rows (sum, sumMap): once per joined row. */
const summed = (name: string): V1Measure<O> => {
  const measure = OBSERVATIONS_VIEW.measures[name]!;
  return {
    inner: (e, joined) => {
      const value = measure.value(e);
      return value === null ? null : Number(value) * joined;
    },
    type: measure.type,
    nullable: measure.nullable,
  };
};

export const V1_OBSERVATIONS_VIEW: V1View<O> = {
  name: 'observations',
  dimensions: {
    id: own((e) => e.observation.id),
    traceId: own((e) => text(e.observation.traceId)),
    traceName: ofTrace((e) => text(e.traceName)),
    environment: own((e) => e.observation.environment),
    parentObservationId: own((e) => e.observation.parentObservationId),
    type: own((e) => e.observation.type),
    name: own((e) => text(e.observation.name)),
    level: own((e) => e.observation.level),
    version: own((e) => e.observation.version),
    tags: ofTrace((e) => e.tags, 'string[]'),
    providedModelName: own((e) => e.observation.providedModelName),
    promptName: own((e) => e.observation.promptName),
    promptVersion: own((e) => e.observation.promptVersion),
    userId: ofTrace((e) => e.userId),
    sessionId: ofTrace((e) => e.sessionId),
    traceRelease: ofTrace((e) => e.release),
    traceVersion: ofTrace((e) => e.traceVersion),
    startTimeMonth: own((e) => e.observation.startTime.slice(0, 7)),
    toolNames: { read: () => [], type: 'arrayString', explode: true },
    calledToolNames: { read: () => [], type: 'arrayString', explode: true },
  },
  measures: {
    // count(1) over the joined rows.
    count: { inner: (_, joined) => joined, type: 'integer' },
    latency: single('latency'),
    streamingLatency: single('streamingLatency'),
    inputTokens: single('inputTokens'),
    outputTokens: single('outputTokens'),
    totalTokens: summed('totalTokens'),
    outputTokensPerSecond: single('outputTokensPerSecond'),
    // sumMap(usage_details)['total'] over the joined rows, over any() of the times.
    tokensPerSecond: summed('tokensPerSecond'),
    inputCost: single('inputCost'),
    outputCost: single('outputCost'),
    // The v3 observations table's total_cost is Nullable: an observation without a cost is NULL.
    totalCost: { inner: (e, joined) => (e.observation.totalCost === null ? null : e.observation.totalCost * joined), type: 'decimal', nullable: true },
    timeToFirstToken: single('timeToFirstToken'),
    countScores: { inner: (e) => e.scores, type: 'integer', relation: 'scores' },
    toolDefinitions: { inner: () => null, type: 'integer' },
    toolCalls: { inner: () => null, type: 'integer' },
  },
  relations: {
    traces: (e) => (e.traceJoined ? 1 : 0),
    scores: (e) => e.scores,
  },
  timeDimension: 'start_time',
  time: (e) => e.observation.startTime,
  metadata: (e) => e.observation.metadata ?? {},
};
