// The views of the metrics API v2, by name (viewDeclarations.v2 of the service's data model;
// its v2 API has no `traces` view).
import type { MetricsView, ViewName } from './declaration.js';
import { type MetricsScoreRow, SCORES_BOOLEAN_VIEW, SCORES_CATEGORICAL_VIEW, SCORES_NUMERIC_VIEW } from './scores-view.js';
import { type MetricsRow, OBSERVATIONS_VIEW } from './view.js';

/** A view whose rows are not known here: its declaration can be read, its readers not called. */
export type AnyMetricsView = MetricsView<never>;

/** A row of any view. */
export type ViewRow = MetricsRow | MetricsScoreRow;

const VIEWS: Readonly<Record<ViewName, AnyMetricsView>> = {
  observations: OBSERVATIONS_VIEW,
  'scores-numeric': SCORES_NUMERIC_VIEW,
  'scores-categorical': SCORES_CATEGORICAL_VIEW,
  'scores-boolean': SCORES_BOOLEAN_VIEW,
};

export function metricsView(name: ViewName): AnyMetricsView {
  return VIEWS[name];
}
