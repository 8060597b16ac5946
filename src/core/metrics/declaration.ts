// What a view of the metrics API declares, as the service's data model does
// (packages/shared/src/features/query/dataModel.ts, `ViewDeclarationType`): dimensions a query
// groups and filters by, measures it aggregates, the time dimension its range and buckets use.
// Here each dimension and measure also reads its value from one row of the view.

/** The views of the v2 API (`viewsV2` in packages/shared/src/features/query/types.ts). */
export const VIEW_NAMES = ['observations', 'scores-numeric', 'scores-categorical', 'scores-boolean'] as const;
/** The views of the v1 API (`views`): v2's and `traces`. */
export const V1_VIEW_NAMES = ['traces', ...VIEW_NAMES] as const;
export type ViewName = (typeof V1_VIEW_NAMES)[number];

/** Which API's declarations a query is checked and answered with (`viewDeclarations.v1`, `.v2`). */
export type ApiVersion = 'v1' | 'v2';

export interface Dimension<Row> {
  read: (row: Row) => unknown;
  /** The declared type, which decides the filter types the dimension takes. */
  type: 'string' | 'string[]' | 'arrayString' | 'number' | 'boolean';
  /** Grouping by it needs a top-N query (high-cardinality.ts). */
  highCardinality?: boolean;
}

export interface Measure<Row> {
  /** The row's value; null counts for nothing in an aggregation. */
  value: (row: Row) => number | string | null;
  /**
   * The declared type: `integer` columns are 64-bit integers, answered as strings; a `string`
   * measure takes only `count` and `uniq`.
   */
  type: 'integer' | 'decimal' | 'number' | 'string';
  /**
   * The service's column can be NULL (a Nullable ClickHouse type): over no rows its sum, minimum
   * and maximum are null. Those of any other column are zero.
   */
  nullable?: boolean;
}

export interface MetricsView<Row> {
  name: ViewName;
  dimensions: Readonly<Record<string, Dimension<Row>>>;
  measures: Readonly<Record<string, Measure<Row>>>;
  /** The column a datetime filter names, and whose time the range and buckets use. */
  timeDimension: string;
  time: (row: Row) => string;
  /** The row's metadata, for `stringObject` filters on `metadata`. */
  metadata: (row: Row) => Readonly<Record<string, unknown>>;
  /** Whether the row belongs to the view at all (the declaration's segments). */
  segment?: (row: Row) => boolean;
}

const ALL_AGGREGATIONS = ['sum', 'avg', 'count', 'max', 'min', 'p50', 'p75', 'p90', 'p95', 'p99', 'histogram', 'uniq'] as const;

/** `getValidAggregationsForMeasureType`: every aggregation for numbers, `count` and `uniq` otherwise. */
export function validAggregations(type: Measure<unknown>['type']): readonly string[] {
  return type === 'string' ? ['count', 'uniq'] : ALL_AGGREGATIONS;
}

