// Where traces get puts a trace's observations as they are read (load.ts): written out at once as
// JSON (the document `--json` prints, streamed: memory holds one page), kept whole for --jq (jq
// needs the document), or kept as the tree's rows: each observation read into the few fields a
// row shows (its input and output only with --io, cut to the terminal's width there), never the
// answer it came in.
import type { Context } from '../../context.js';
import { readObservation, type TraceObservation, type TraceTotals, TotalsSum } from '../../core/traces/tree.js';
import { truncate } from '../../output/fit.js';

export type TraceSource = 'traces' | 'observations-v2';

/** Input or output as one line of text: strings as they are, anything else as compact JSON. */
export function ioText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

export interface TraceSink {
  /** The trace's fields that come before its observations (called before the first `add`). */
  begin(head: Record<string, unknown>): Promise<void>;
  add(items: readonly Record<string, unknown>[]): Promise<void>;
  /** The fields after the observations (scores among them); `source` is the route the trace came from. */
  end(tail: Record<string, unknown>, source: TraceSource): Promise<void>;
  /** The read stopped before the last observation: what is written says so. */
  stop(reason: string): Promise<void>;
}

/** The v3 trace route's own total and latency, which the totals show beside llmobs's sum. */
function serverTotals(fields: Record<string, unknown>, source: TraceSource): { totalCost?: unknown; latency?: unknown } {
  return source === 'traces' ? { totalCost: fields.totalCost, latency: fields.latency } : {};
}

/** `--json`: the document printJson would print (two-space indented), written as the pages come. */
export class JsonStreamSink implements TraceSink {
  private readonly sum = new TotalsSum();
  private readonly fields: Record<string, unknown> = {};
  private started = false;
  private items = 0;
  private open = false;

  constructor(private readonly ctx: Context) {}

  private write(text: string): Promise<void> {
    return this.ctx.out.writeChunk(text);
  }

  private async field(key: string, value: unknown): Promise<void> {
    if (value === undefined) return;
    await this.write(`${this.started ? ',' : '{'}\n  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}`);
    this.started = true;
  }

  async begin(head: Record<string, unknown>): Promise<void> {
    Object.assign(this.fields, head);
    for (const [key, value] of Object.entries(head)) await this.field(key, value);
    await this.write(`${this.started ? ',' : '{'}\n  "observations": [`);
    this.started = true;
    this.open = true;
  }

  async add(items: readonly Record<string, unknown>[]): Promise<void> {
    let text = '';
    for (const item of items) {
      this.sum.add(readObservation(item));
      text += `${this.items++ ? ',' : ''}\n    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}`;
    }
    if (text) await this.write(text);
  }

  private async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.write(this.items ? '\n  ]' : ']');
  }

  async end(tail: Record<string, unknown>, source: TraceSource): Promise<void> {
    await this.close();
    Object.assign(this.fields, tail);
    for (const [key, value] of Object.entries(tail)) await this.field(key, value);
    await this.field('totals', this.sum.result(serverTotals(this.fields, source)));
    await this.field('source', source);
    await this.write('\n}\n');
  }

  async stop(reason: string): Promise<void> {
    if (!this.started) return;
    await this.close();
    await this.field('incomplete', reason);
    await this.write('\n}\n');
  }
}

/** `--json` with `--jq`: the document whole (jq reads one document), printed at the end. */
export class JsonWholeSink implements TraceSink {
  private readonly sum = new TotalsSum();
  private head: Record<string, unknown> = {};
  private readonly observations: Record<string, unknown>[] = [];

  constructor(private readonly ctx: Context) {}

  async begin(head: Record<string, unknown>): Promise<void> {
    this.head = head;
  }

  async add(items: readonly Record<string, unknown>[]): Promise<void> {
    for (const item of items) {
      this.sum.add(readObservation(item));
      this.observations.push(item);
    }
  }

  async end(tail: Record<string, unknown>, source: TraceSource): Promise<void> {
    const fields = { ...this.head, ...tail };
    this.ctx.out.printJson({ ...this.head, observations: this.observations, ...tail, totals: this.sum.result(serverTotals(fields, source)), source });
  }

  async stop(): Promise<void> {}
}

/** What the tree shows: the trace's fields, its observations as rows, its totals. */
export interface TraceView {
  trace: Record<string, unknown>;
  observations: TraceObservation[];
  totals: TraceTotals;
  source: TraceSource;
}

/**
 * The tree and the tab-separated rows need every observation before the first line (a parent
 * comes after its children, newest first): the rows are kept, their inputs and outputs with
 * --io only (cut to the terminal's width on a terminal). What the answers add up to is bounded
 * by the listing limit (load.ts).
 */
export class TreeSink implements TraceSink {
  private readonly sum = new TotalsSum();
  private readonly observations: TraceObservation[] = [];
  private trace: Record<string, unknown> = {};
  private source: TraceSource = 'traces';

  /** `width`: on a terminal, inputs and outputs are cut to it as they come (undefined: kept whole). */
  constructor(private readonly options: { io: boolean; width: number | undefined }) {}

  private keep(value: unknown): unknown {
    if (!this.options.io || value === null || value === undefined) return undefined;
    const text = ioText(value);
    return this.options.width === undefined ? text : truncate(text.replace(/\s+/g, ' '), this.options.width);
  }

  async begin(head: Record<string, unknown>): Promise<void> {
    this.trace = { ...head };
  }

  async add(items: readonly Record<string, unknown>[]): Promise<void> {
    for (const item of items) {
      const o = readObservation(item);
      this.sum.add(o);
      o.input = this.keep(o.input);
      o.output = this.keep(o.output);
      this.observations.push(o);
    }
  }

  async end(tail: Record<string, unknown>, source: TraceSource): Promise<void> {
    Object.assign(this.trace, tail);
    this.source = source;
  }

  async stop(): Promise<void> {}

  view(): TraceView {
    return { trace: this.trace, observations: this.observations, totals: this.sum.result(serverTotals(this.trace, this.source)), source: this.source };
  }
}
