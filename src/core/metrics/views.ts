// The views of the metrics API by version and name (viewDeclarations of the service's data
// model): v2's (its public API has no `traces` view), and v1's, read through their inner rows
// (v1-declaration.ts).
import type { ApiVersion, MetricsView, ViewName } from './declaration.js';
import { type MetricsScoreRow, SCORES_BOOLEAN_VIEW, SCORES_CATEGORICAL_VIEW, SCORES_NUMERIC_VIEW } from './scores-view.js';
import { innerView, type V1View } from './v1-declaration.js';
import { V1_SCORES_BOOLEAN_VIEW, V1_SCORES_CATEGORICAL_VIEW, V1_SCORES_NUMERIC_VIEW } from './v1-scores-view.js';
import { V1_OBSERVATIONS_VIEW, V1_TRACES_VIEW } from './v1-views.js';
import { type MetricsRow, OBSERVATIONS_VIEW } from './view.js';

/** A view whose rows are not known here: its declaration can be read, its readers not called. */
export type AnyMetricsView = MetricsView<never>;

/** A row of any v2 view. */
export type ViewRow = MetricsRow | MetricsScoreRow;

const V2_VIEWS: Readonly<Partial<Record<ViewName, AnyMetricsView>>> = {
  observations: OBSERVATIONS_VIEW,
  'scores-numeric': SCORES_NUMERIC_VIEW,
  'scores-categorical': SCORES_CATEGORICAL_VIEW,
  'scores-boolean': SCORES_BOOLEAN_VIEW,
};

const V1_DECLARATIONS: Readonly<Record<ViewName, V1View<never>>> = {
  traces: V1_TRACES_VIEW as V1View<never>,
  observations: V1_OBSERVATIONS_VIEW as V1View<never>,
  'scores-numeric': V1_SCORES_NUMERIC_VIEW as V1View<never>,
  'scores-categorical': V1_SCORES_CATEGORICAL_VIEW as V1View<never>,
  'scores-boolean': V1_SCORES_BOOLEAN_VIEW as V1View<never>,
};

const V1_VIEWS = Object.fromEntries(Object.entries(V1_DECLARATIONS).map(([name, view]) => [name, innerView(view) as AnyMetricsView])) as Readonly<Record<ViewName, AnyMetricsView>>;

/** The view of this name in this version; the v2 schema lets only its own views through. */
export function metricsView(name: ViewName, version: ApiVersion = 'v2'): AnyMetricsView {
  const view = version === 'v1' ? V1_VIEWS[name] : V2_VIEWS[name];
  if (!view) throw new Error(`the v2 metrics API has no ${name} view`);
  return view;
}

/** A v1 view's declaration, whose relations the store reads and whose base rows become inner rows. */
export function v1Declaration(name: ViewName): V1View<never> {
  return V1_DECLARATIONS[name];
}
