// How the v1 metrics API answers a query (packages/shared/src/features/query/server/
// queryBuilder.ts, version "v1", two-level query): the view's base table is INNER JOINed to the
// relation tables the query's dimensions, measures and filters name (each relation's rows only
// within the query's range, `buildJoins`); the joined rows are grouped per base row, where each
// measure's inner SQL aggregates them (so `count(*)` or `sum(total_cost)` counts a row once per
// joined row of another relation); the outer query then groups those per-row values by the
// dimensions and applies the query's aggregations, as v2 does. Here the store hands over each
// base row with what its relations hold in range, and this file turns them into the per-row
// values the shared engine (run.ts) groups and aggregates.
import type { Dimension, Measure, MetricsView, ViewName } from './declaration.js';

export interface V1Dimension<Entity> {
  read: (entity: Entity) => unknown;
  type: Dimension<unknown>['type'];
  /** The relation table the dimension reads (a JOIN when the query names it). */
  relation?: string;
  /** An array exploded into one row per element (`arrayJoin`); no element, no row. */
  explode?: boolean;
}

export interface V1Measure<Entity> {
  /** The inner query's value for one base row, given how many joined rows it has. */
  inner: (entity: Entity, joined: number) => number | string | null;
  type: Measure<unknown>['type'];
  /** The service's column is Nullable (Measure.nullable). */
  nullable?: boolean;
  relation?: string;
}

export interface V1View<Entity> {
  name: ViewName;
  dimensions: Readonly<Record<string, V1Dimension<Entity>>>;
  measures: Readonly<Record<string, V1Measure<Entity>>>;
  /** Per relation table, how many of its rows (within the query's range) join a base row. */
  relations: Readonly<Record<string, (entity: Entity) => number>>;
  timeDimension: string;
  time: (entity: Entity) => string;
  metadata: (entity: Entity) => Readonly<Record<string, unknown>>;
  segment?: (entity: Entity) => boolean;
}

/** One row of the inner query: a base row, its number of joined rows, and the elements of exploded arrays. */
export interface V1InnerRow<Entity> {
  entity: Entity;
  joined: number;
  exploded: Readonly<Record<string, unknown>> | null;
}

/** The view as the shared engine reads it: over inner rows. */
export function innerView<Entity>(view: V1View<Entity>): MetricsView<V1InnerRow<Entity>> {
  const dimensions: Record<string, Dimension<V1InnerRow<Entity>>> = {};
  for (const [field, dimension] of Object.entries(view.dimensions)) {
    dimensions[field] = { type: dimension.type, read: (row) => (row.exploded && Object.hasOwn(row.exploded, field) ? row.exploded[field] : dimension.read(row.entity)) };
  }
  const measures: Record<string, Measure<V1InnerRow<Entity>>> = {};
  for (const [name, measure] of Object.entries(view.measures)) {
    measures[name] = { type: measure.type, nullable: measure.nullable, value: (row) => measure.inner(row.entity, row.joined) };
  }
  const { segment } = view;
  return {
    name: view.name,
    dimensions,
    measures,
    timeDimension: view.timeDimension,
    time: (row) => view.time(row.entity),
    metadata: (row) => view.metadata(row.entity),
    ...(segment ? { segment: (row: V1InnerRow<Entity>) => segment(row.entity) } : {}),
  };
}

/** What the relations are read for: the fields a query names. */
export interface V1QueryFields {
  dimensions: ReadonlyArray<{ field: string }>;
  metrics: ReadonlyArray<{ measure: string }>;
  filters: ReadonlyArray<{ column: string }>;
}

/**
 * The relation tables a query joins (`collectRelationTables`): those of its dimensions, its
 * measures, and its filters' dimensions (a column ending in "Name" the view lacks reads `name`).
 */
export function v1Relations(view: V1View<never>, query: V1QueryFields): Set<string> {
  const relations = new Set<string>();
  const add = (relation: string | undefined) => relation && relations.add(relation);
  for (const { field } of query.dimensions) add(view.dimensions[field]?.relation);
  for (const { measure } of query.metrics) add(view.measures[measure]?.relation);
  for (const { column } of query.filters) {
    const dimension = Object.hasOwn(view.dimensions, column) ? view.dimensions[column] : column.endsWith('Name') ? view.dimensions.name : undefined;
    add(dimension?.relation);
  }
  return relations;
}

/**
 * The inner query's rows: base rows without a row in a joined relation are dropped (INNER JOIN);
 * the others count their joined rows, and an exploded array dimension makes one row per element.
 */
export function* v1InnerRows<Entity>(view: V1View<Entity>, query: V1QueryFields, entities: Iterable<Entity>): Generator<V1InnerRow<Entity>> {
  const relations = [...v1Relations(view as V1View<never>, query)].map((name) => view.relations[name]!);
  const exploded = query.dimensions.map(({ field }) => field).filter((field) => view.dimensions[field]?.explode);
  for (const entity of entities) {
    let joined = 1;
    for (const count of relations) joined *= count(entity);
    if (joined === 0) continue;
    if (exploded.length === 0) {
      yield { entity, joined, exploded: null };
      continue;
    }
    // Several exploded arrays in one SELECT multiply out, as arrayJoin does.
    let combinations: Array<Record<string, unknown>> = [{}];
    for (const field of exploded) {
      const values = view.dimensions[field]!.read(entity);
      const elements = Array.isArray(values) ? values : [];
      combinations = combinations.flatMap((combination) => elements.map((element: unknown) => ({ ...combination, [field]: element })));
    }
    for (const combination of combinations) yield { entity, joined, exploded: combination };
  }
}
