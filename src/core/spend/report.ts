// A cost report from the Metrics API v2 (view `observations`): the query llmobs sends, and the
// report it makes of the answer's rows. Rows name their values `<aggregation>_<measure>`
// (`sum_totalCost`), dimensions by their field, the time bucket `time_dimension`; numbers may
// be numbers or numeric strings.
import { CostSum, lenientNumber } from '../numbers.js';
import { compareStrings } from '../order.js';

/** What `--by` accepts, and the Metrics API dimension each one is. */
export const GROUPINGS = {
  model: 'providedModelName',
  user: 'userId',
  prompt: 'promptName',
  environment: 'environment',
  name: 'name',
  type: 'type',
  trace: 'traceName',
  release: 'traceRelease',
  level: 'level',
} as const;

export type Grouping = keyof typeof GROUPINGS;
export const TIME_GROUPINGS = ['hour', 'day', 'week', 'month'] as const;
export type TimeGrouping = (typeof TIME_GROUPINGS)[number];

/** Dimensions the API refuses to combine with time buckets or without a top-N limit. */
const HIGH_CARDINALITY = new Set<string>(['userId']);

/** The API's largest answer; more rows than this are cut. */
export const ROW_LIMIT = 1000;

export interface ReportRequest {
  from: Date;
  to: Date;
  by: Grouping[];
  time: TimeGrouping | null;
  /** Observation types to count (default: all but SPAN and EVENT, which carry no cost). */
  types: string[] | null;
  environments: string[];
}

export interface MetricsFilter {
  column: string;
  operator: string;
  value: unknown;
  type: string;
}

export interface MetricsQuery {
  view: 'observations';
  dimensions: Array<{ field: string }>;
  metrics: Array<{ measure: string; aggregation: string }>;
  filters: MetricsFilter[];
  timeDimension: { granularity: TimeGrouping } | null;
  fromTimestamp: string;
  toTimestamp: string;
  orderBy: Array<{ field: string; direction: 'asc' | 'desc' }>;
  config: { row_limit: number };
}

/** What `--by` names, read: the groupings in order (repeatable or comma-separated), and at most one time grouping. */
export function readGroupings(items: readonly string[] | undefined): { ok: true; by: Grouping[]; time: TimeGrouping | null } | { ok: false; message: string } {
  const names = (items ?? ['model']).flatMap((item) => item.split(',')).map((s) => s.trim()).filter(Boolean);
  const by: Grouping[] = [];
  let time: TimeGrouping | null = null;
  for (const name of names) {
    if ((TIME_GROUPINGS as readonly string[]).includes(name)) {
      if (time && time !== name) return { ok: false, message: `one time grouping at a time (${time} and ${name} given)` };
      time = name as TimeGrouping;
    } else if (name in GROUPINGS) {
      if (!by.includes(name as Grouping)) by.push(name as Grouping);
    } else {
      return { ok: false, message: `unknown grouping "${name}"; use ${[...Object.keys(GROUPINGS), ...TIME_GROUPINGS].join(', ')}` };
    }
  }
  return { ok: true, by, time };
}

/** Why [from, to) holds nothing, or null when it holds something. */
export function rangeProblem(from: Date, to: Date): string | null {
  return from.getTime() < to.getTime() ? null : `the time range is empty: --from (${from.toISOString()}) must be earlier than --to (${to.toISOString()})`;
}

/** Why a request cannot be answered by one query, or null when it can. */
export function checkRequest(request: ReportRequest): string | null {
  const empty = rangeProblem(request.from, request.to);
  if (empty) return empty;
  const high = request.by.filter((g) => HIGH_CARDINALITY.has(GROUPINGS[g]));
  if (high.length && request.time) return `--by ${high.join(', ')} cannot be combined with --by ${request.time}: the Metrics API refuses time series over per-user groups (it would be unbounded). Report per user for the whole range, or per ${request.time} without users`;
  if (new Set(request.by).size !== request.by.length) return '--by names a grouping twice';
  return null;
}

export const COST = 'sum_totalCost';
const INPUT = 'sum_inputTokens';
const OUTPUT = 'sum_outputTokens';
const COUNT = 'count_count';
export const BUCKET = 'time_dimension';

export function buildQuery(request: ReportRequest): MetricsQuery {
  const filters: MetricsFilter[] = [];
  if (request.types && request.types.length) filters.push({ column: 'type', operator: 'any of', value: request.types, type: 'stringOptions' });
  else filters.push({ column: 'type', operator: 'none of', value: ['SPAN', 'EVENT'], type: 'stringOptions' });
  if (request.environments.length) filters.push({ column: 'environment', operator: 'any of', value: request.environments, type: 'stringOptions' });
  return {
    view: 'observations',
    dimensions: request.by.map((g) => ({ field: GROUPINGS[g] })),
    metrics: [
      { measure: 'totalCost', aggregation: 'sum' },
      { measure: 'inputTokens', aggregation: 'sum' },
      { measure: 'outputTokens', aggregation: 'sum' },
      { measure: 'count', aggregation: 'count' },
    ],
    filters,
    timeDimension: request.time ? { granularity: request.time } : null,
    fromTimestamp: request.from.toISOString(),
    toTimestamp: request.to.toISOString(),
    // A top-N order: required with per-user groups, harmless otherwise.
    orderBy: [{ field: COST, direction: 'desc' }],
    config: { row_limit: ROW_LIMIT },
  };
}

export interface Amounts {
  cost: number;
  inputTokens: number;
  outputTokens: number;
  count: number;
}

export interface ReportRow extends Amounts {
  /** Each `--by` grouping's value (null: the observation has none). */
  group: Record<string, string | null>;
  /** Start of the time bucket (ISO), or null without a time grouping. */
  bucket: string | null;
}

export interface ReportGroup extends Amounts {
  group: Record<string, string | null>;
  /** Share of the total cost, 0..1. */
  share: number;
}

export interface ReportBucket extends Amounts {
  bucket: string;
}

export interface CostReport {
  from: string;
  to: string;
  by: Grouping[];
  time: TimeGrouping | null;
  total: Amounts;
  groups: ReportGroup[];
  /** Every bucket of the range, empty ones included, in time order; [] without a time grouping. */
  buckets: ReportBucket[];
  rows: ReportRow[];
  /** The answer had as many rows as the API returns at most: some may be missing. */
  truncated: boolean;
  /** Rows whose numbers could not be read. */
  unreadable: number;
}

function label(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A bucket time as ISO; ClickHouse may send "2026-05-01 00:00:00" (UTC, without a zone). */
export function bucketTime(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  let text = String(value).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += 'T00:00:00Z';
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) text = `${text.replace(' ', 'T')}Z`;
  const ms = typeof value === 'number' ? value : Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Start of the bucket that holds `ms` (UTC; weeks start on Monday, as ClickHouse's toStartOfWeek(…, 1)). */
export function bucketStart(ms: number, time: TimeGrouping): number {
  const d = new Date(ms);
  switch (time) {
    case 'hour':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
    case 'day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'week': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

function nextBucket(ms: number, time: TimeGrouping): number {
  const d = new Date(ms);
  switch (time) {
    case 'hour':
      return ms + 3_600_000;
    case 'day':
      return ms + 86_400_000;
    case 'week':
      return ms + 7 * 86_400_000;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
}

const MAX_BUCKETS = 10_000;

function sums() {
  return { cost: new CostSum(), inputTokens: 0, outputTokens: 0, count: 0 };
}

function amounts(s: ReturnType<typeof sums>): Amounts {
  return { cost: s.cost.value, inputTokens: s.inputTokens, outputTokens: s.outputTokens, count: s.count };
}

function add(s: ReturnType<typeof sums>, row: Amounts): void {
  s.cost.add(row.cost);
  s.inputTokens += row.inputTokens;
  s.outputTokens += row.outputTokens;
  s.count += row.count;
}

export function buildReport(request: ReportRequest, data: readonly Record<string, unknown>[]): CostReport {
  const dims = request.by.map((g) => [g, GROUPINGS[g]] as const);
  const rows: ReportRow[] = [];
  let unreadable = 0;
  for (const raw of data) {
    const cost = lenientNumber(raw[COST]);
    const count = lenientNumber(raw[COUNT]);
    if (cost === null && count === null) {
      unreadable++;
      continue;
    }
    const group: Record<string, string | null> = {};
    for (const [name, field] of dims) group[name] = label(raw[field]);
    rows.push({
      group,
      bucket: request.time ? bucketTime(raw[BUCKET]) : null,
      cost: cost ?? 0,
      inputTokens: lenientNumber(raw[INPUT]) ?? 0,
      outputTokens: lenientNumber(raw[OUTPUT]) ?? 0,
      count: count ?? 0,
    });
  }

  const total = sums();
  const groups = new Map<string, { group: Record<string, string | null>; s: ReturnType<typeof sums> }>();
  const buckets = new Map<string, ReturnType<typeof sums>>();
  for (const row of rows) {
    add(total, row);
    const key = JSON.stringify(request.by.map((g) => row.group[g]));
    let entry = groups.get(key);
    if (!entry) groups.set(key, (entry = { group: row.group, s: sums() }));
    add(entry.s, row);
    if (row.bucket) {
      let b = buckets.get(row.bucket);
      if (!b) buckets.set(row.bucket, (b = sums()));
      add(b, row);
    }
  }
  const totalAmounts = amounts(total);
  const groupList = [...groups.values()]
    .map(({ group, s }) => ({ group, ...amounts(s), share: totalAmounts.cost > 0 ? amounts(s).cost / totalAmounts.cost : 0 }))
    .sort((a, b) => b.cost - a.cost || b.count - a.count || compareStrings(JSON.stringify(a.group), JSON.stringify(b.group)));

  const bucketList: ReportBucket[] = [];
  if (request.time) {
    // Every bucket of the range, so a day without spend shows as an empty bar, not a gap.
    const seen = new Set<string>();
    let n = 0;
    for (let t = bucketStart(request.from.getTime(), request.time); t < request.to.getTime() && n < MAX_BUCKETS; t = nextBucket(t, request.time), n++) {
      const iso = new Date(t).toISOString();
      seen.add(iso);
      const b = buckets.get(iso);
      bucketList.push({ bucket: iso, ...(b ? amounts(b) : { cost: 0, inputTokens: 0, outputTokens: 0, count: 0 }) });
    }
    // Buckets the server labels otherwise (another week start, a time zone) are kept as sent.
    for (const [iso, b] of buckets) if (!seen.has(iso)) bucketList.push({ bucket: iso, ...amounts(b) });
    bucketList.sort((a, b) => compareStrings(a.bucket, b.bucket));
  }
  rows.sort((a, b) => compareStrings(a.bucket ?? '', b.bucket ?? '') || b.cost - a.cost);
  return {
    from: request.from.toISOString(),
    to: request.to.toISOString(),
    by: request.by,
    time: request.time,
    total: totalAmounts,
    groups: groupList,
    buckets: bucketList,
    rows,
    truncated: data.length >= ROW_LIMIT,
    unreadable,
  };
}

export interface BudgetCheck {
  limit: number;
  total: number;
  exceeded: boolean;
  /** How much over the budget (0 when within). */
  over: number;
  /** Share of the budget used, 0..∞. */
  used: number;
}

export function checkBudget(total: number, limit: number): BudgetCheck {
  const over = total - limit;
  return { limit, total, exceeded: over > 1e-12, over: over > 1e-12 ? over : 0, used: limit > 0 ? total / limit : total > 0 ? Number.POSITIVE_INFINITY : 0 };
}
