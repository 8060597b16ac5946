// A trace as Langfuse v4 makes one of its observations (events), where no trace is stored: the
// fields of EVENTS_AGGREGATION_FIELDS in packages/shared/src/server/queries/clickhouse-sql/
// event-query-builder.ts, which its trace reads group by trace id. Over v2 observations, one at
// a time (a trace read page by page is never held), the last written (`updatedAt`, Langfuse's
// event_ts) winning where Langfuse takes argMax:
// - name: the latest non-empty trace name, else the latest name of a root observation
//   (eventsTableTraceNameAggregationSql in packages/shared/src/eventsTable.ts);
// - timestamp: the earliest start; latency: from it to the latest start or end, in seconds;
// - environment, version, sessionId, userId, release, tags: the latest non-empty value;
// - input, output, metadata, bookmarked: the latest root observation's (no parent:
//   `parent_span_id = ''`); public: any observation's;
// - totalCost: the sum of the observations' costs; createdAt and updatedAt: the first and last.
import { lenientNumber } from '../numbers.js';

interface Latest {
  value: unknown;
  at: string;
}

const empty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export class TraceAggregate {
  private readonly latest = new Map<string, Latest>();
  private root: Record<string, unknown> | undefined;
  private rootAt = '';
  private firstStart: number | null = null;
  private firstStartText = '';
  private lastTime: number | null = null;
  private createdAt = '';
  private updatedAt = '';
  private cost = 0;
  private costs = 0;
  private publicAny = false;

  /** Takes one observation into account (v2 fields; `time` and `trace_context` groups for the argMax ones). */
  add(o: Readonly<Record<string, unknown>>): void {
    const at = text(o.updatedAt);
    const keep = (key: string, value: unknown) => {
      if (empty(value)) return;
      const held = this.latest.get(key);
      if (!held || at > held.at) this.latest.set(key, { value, at });
    };
    keep('traceName', o.traceName);
    for (const key of ['environment', 'version', 'sessionId', 'userId', 'release', 'tags']) keep(key, o[key]);
    const isRoot = !o.parentObservationId;
    if (isRoot) {
      keep('rootName', o.name);
      if (!this.root || at > this.rootAt) {
        this.root = o;
        this.rootAt = at;
      }
    }
    const start = Date.parse(text(o.startTime));
    const end = Date.parse(text(o.endTime));
    if (Number.isFinite(start)) {
      if (this.firstStart === null || start < this.firstStart) {
        this.firstStart = start;
        this.firstStartText = text(o.startTime);
      }
      if (this.lastTime === null || start > this.lastTime) this.lastTime = start;
    }
    if (Number.isFinite(end) && (this.lastTime === null || end > this.lastTime)) this.lastTime = end;
    const created = text(o.createdAt);
    if (created && (!this.createdAt || created < this.createdAt)) this.createdAt = created;
    if (at && at > this.updatedAt) this.updatedAt = at;
    const cost = lenientNumber(o.totalCost);
    if (cost !== null) {
      this.cost += cost;
      this.costs++;
    }
    if (o.public === true) this.publicAny = true;
  }

  /** The root observation whose input, output and metadata are the trace's (undefined: none without a parent). */
  rootObservation(): Readonly<Record<string, unknown>> | undefined {
    return this.root;
  }

  /**
   * The trace's fields, in the order of the v3 trace object. `io` replaces the root's input,
   * output and metadata when they were read apart (the pages left the io group out).
   */
  fields(io?: { input: unknown; output: unknown; metadata: unknown }): Record<string, unknown> {
    const get = (key: string) => this.latest.get(key)?.value ?? null;
    const root = this.root;
    return {
      name: get('traceName') ?? get('rootName'),
      timestamp: this.firstStartText || null,
      input: io ? io.input : (root?.input ?? null),
      output: io ? io.output : (root?.output ?? null),
      sessionId: get('sessionId'),
      release: get('release'),
      version: get('version'),
      userId: get('userId'),
      metadata: io ? io.metadata : (root?.metadata ?? null),
      tags: get('tags') ?? [],
      public: this.publicAny,
      bookmarked: root?.bookmarked === true,
      environment: get('environment'),
      latency: this.firstStart === null || this.lastTime === null ? null : (this.lastTime - this.firstStart) / 1000,
      totalCost: this.costs ? this.cost : null,
      rootObservationId: root?.id ?? null,
      createdAt: this.createdAt || null,
      updatedAt: this.updatedAt || null,
    };
  }
}
