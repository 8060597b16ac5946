// The daily metrics of the v3 records (GET /api/public/metrics/daily), read as Langfuse reads
// them (packages/shared/src/server/repositories/daily-metrics.ts, generateDailyMetrics and
// getDailyMetricsCount, with the filters of web/src/features/public-api/server/dailyMetrics.ts):
// observations per day and model, traces per day, and the number of days with traces.
import type { Statements } from './sqlite.js';
import { type FilterSpec, where } from './where.js';

/** The route's filters; each given one must hold. Times are ISO strings. */
export interface DailyMetricsFilter {
  userId?: string | undefined;
  traceName?: string | undefined;
  /** The trace has all of these tags. */
  tags?: readonly string[] | undefined;
  /** The trace's environment, and the observation's, is one of these. */
  environments?: readonly string[] | undefined;
  /** Of the trace: timestamp >= this. */
  fromTimestamp?: string | undefined;
  /** Of the trace: timestamp < this. */
  toTimestamp?: string | undefined;
}

type TraceFilter = Omit<DailyMetricsFilter, 'environments'> & { traceEnvironments?: readonly string[] | undefined };

const TRACE_FILTER: FilterSpec<TraceFilter> = {
  userId: { sql: 't.user_id', compare: '=' },
  traceName: { sql: 't.name', compare: '=' },
  tags: { sql: "json_extract(t.record, '$.tags')", compare: 'has all' },
  traceEnvironments: { sql: 't.environment', compare: 'in' },
  fromTimestamp: { sql: 't.timestamp', compare: '>=' },
  toTimestamp: { sql: 't.timestamp', compare: '<' },
};

const JOINED_FILTER: FilterSpec<TraceFilter & { observationEnvironments?: readonly string[] | undefined }> = {
  ...TRACE_FILTER,
  observationEnvironments: { sql: 'o.environment', compare: 'in' },
};

/** One model's usage on a day. */
export interface DailyModelUsage {
  model: string | null;
  inputUsage: number;
  outputUsage: number;
  totalUsage: number;
  totalCost: number;
  countObservations: number;
  countTraces: number;
}

/** One day of the answer. */
export interface DailyMetricsDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  countTraces: number;
  countObservations: number;
  totalCost: number;
  usage: DailyModelUsage[];
}

/** One page of the days, as the route answers it. */
export interface DailyMetricsPage {
  data: DailyMetricsDay[];
  meta: { page: number; limit: number; totalItems: number; totalPages: number };
}

/** Observations are counted from an hour before `fromTimestamp` (TRACE_TO_OBSERVATIONS_INTERVAL). */
const OBSERVATIONS_BEFORE_MS = 3_600_000;

export class DailyMetricsStore {
  constructor(private readonly sql: Statements) {}

  /** Every day with observations or traces that the filter lets through, newest first. */
  days(filter: DailyMetricsFilter): DailyMetricsDay[] {
    const { environments, ...rest } = filter;
    const traceFilter: TraceFilter = { ...rest, traceEnvironments: environments };
    // The filters as the service lists them: the environment counts twice (traces and observations).
    const given = Object.values(traceFilter).filter((value) => value !== undefined).length + (environments ? 1 : 0);
    // Without a filter but the start, observations are not joined to their traces at all.
    const joined = given > (filter.fromTimestamp !== undefined ? 1 : 0);
    const since = filter.fromTimestamp === undefined ? [] : [{ sql: 'o.start_time >= ?', params: [new Date(Date.parse(filter.fromTimestamp) - OBSERVATIONS_BEFORE_MS).toISOString()] }];
    const observationWhere = joined ? where(JOINED_FILTER, { ...traceFilter, observationEnvironments: environments }, ...since) : where({}, {}, ...since);
    const models = this.sql.rows<{ date: string; model: string | null; n: number; traces: number; input: number; output: number; total: number; cost: number }>(
      `SELECT substr(o.start_time, 1, 10) AS date, o.provided_model_name AS model, COUNT(*) AS n, COUNT(DISTINCT ifnull(o.trace_id, '')) AS traces,
              SUM(o.input_tokens) AS input, SUM(o.output_tokens) AS output, SUM(o.total_tokens) AS total, SUM(ifnull(o.total_cost, 0)) AS cost
       FROM observations o ${joined ? 'JOIN traces t ON t.id = o.trace_id' : ''} ${observationWhere.sql}
       GROUP BY date, model ORDER BY date, model`,
      ...observationWhere.params,
    );
    const traceWhere = where(TRACE_FILTER, traceFilter);
    const traces = this.sql.rows<{ date: string; n: number }>(`SELECT substr(t.timestamp, 1, 10) AS date, COUNT(*) AS n FROM traces t ${traceWhere.sql} GROUP BY date`, ...traceWhere.params);

    const days = new Map<string, DailyMetricsDay>();
    const day = (date: string) => {
      let found = days.get(date);
      if (!found) days.set(date, (found = { date, countTraces: 0, countObservations: 0, totalCost: 0, usage: [] }));
      return found;
    };
    for (const row of models) {
      const entry = day(row.date);
      entry.countObservations += row.n;
      entry.totalCost += row.cost;
      entry.usage.push({ model: row.model, inputUsage: row.input, outputUsage: row.output, totalUsage: row.total, totalCost: row.cost, countObservations: row.n, countTraces: row.traces });
    }
    for (const row of traces) day(row.date).countTraces = row.n;
    return [...days.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  }

  /** Page `page` (from 1) of `limit` days, with the count of days with traces (totalItems). */
  page(filter: DailyMetricsFilter, page: number, limit: number): DailyMetricsPage {
    const totalItems = this.count(filter);
    const start = (page - 1) * limit;
    return { data: this.days(filter).slice(start, start + limit), meta: { page, limit, totalItems, totalPages: Math.ceil(totalItems / limit) } };
  }

  /** The days with traces the filter lets through (the answer's totalItems). */
  count(filter: DailyMetricsFilter): number {
    const { environments, ...rest } = filter;
    const traceWhere = where(TRACE_FILTER, { ...rest, traceEnvironments: environments });
    return this.sql.row<{ n: number }>(`SELECT COUNT(DISTINCT substr(t.timestamp, 1, 10)) AS n FROM traces t ${traceWhere.sql}`, ...traceWhere.params)?.n ?? 0;
  }
}
