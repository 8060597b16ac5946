// A trace's observations as a tree, and the trace's totals, summed one observation at a time (a
// trace read page by page is counted without holding its observations). Observations come from
// the v3 trace route or the v1 list (`model`, `calculatedTotalCost`) or from v2 observations
// (`providedModelName`, `totalCost`); both are read into one shape, numbers leniently.
import { CostSum, lenientNumber, lenientNumberMap, tokenSums } from '../numbers.js';

export interface TraceObservation {
  id: string;
  parentObservationId: string | null;
  type: string;
  name: string | null;
  model: string | null;
  level: string | null;
  startTime: string | null;
  endTime: string | null;
  /** Seconds, from the times (or the server's latency when a time is missing). */
  durationSeconds: number | null;
  usage: Record<string, number>;
  cost: number | null;
  statusMessage: string | null;
  input: unknown;
  output: unknown;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function time(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** One observation of either API, in the shape the tree and its totals use. */
export function readObservation(raw: Record<string, unknown>): TraceObservation {
  const usage = lenientNumberMap(raw.usageDetails);
  const costs = lenientNumberMap(raw.costDetails);
  // v1 objects (the v3 trace route, the v1 list) give calculatedTotalCost 0 for an observation
  // without costs (reduceUsageOrCostDetails in observations_converters.ts); v2 gives null.
  const calculated = lenientNumber(raw.calculatedTotalCost);
  const cost = lenientNumber(raw.totalCost) ?? (calculated !== null && (calculated !== 0 || Object.keys(costs).length > 0) ? calculated : null) ?? costs.total ?? null;
  const start = time(raw.startTime);
  const end = time(raw.endTime);
  const duration = start !== null && end !== null ? Math.max(0, end - start) / 1000 : lenientNumber(raw.latency);
  return {
    id: String(raw.id),
    parentObservationId: text(raw.parentObservationId) || null,
    type: text(raw.type) ?? 'OBSERVATION',
    name: text(raw.name),
    model: text(raw.providedModelName) ?? text(raw.model),
    level: text(raw.level),
    startTime: text(raw.startTime),
    endTime: text(raw.endTime),
    durationSeconds: duration,
    usage,
    cost,
    statusMessage: text(raw.statusMessage),
    input: raw.input,
    output: raw.output,
  };
}

export interface TreeNode {
  observation: TraceObservation;
  children: TreeNode[];
  /** The parent id when that parent is not among the trace's observations. */
  missingParent: string | null;
}

/** Orders by start time (parsed once per node, not per comparison), then by id. */
function byStart(starts: Map<TreeNode, number>): (a: TreeNode, b: TreeNode) => number {
  const at = (node: TreeNode) => {
    let t = starts.get(node);
    if (t === undefined) {
      t = time(node.observation.startTime) ?? Number.POSITIVE_INFINITY;
      starts.set(node, t);
    }
    return t;
  };
  return (a, b) => {
    const ta = at(a);
    const tb = at(b);
    if (ta !== tb) return ta - tb;
    return a.observation.id < b.observation.id ? -1 : a.observation.id > b.observation.id ? 1 : 0;
  };
}

/**
 * The observations as a forest: children under their parent, ordered by start time. An
 * observation whose parent is missing is a root that says so; observations caught in a parent
 * cycle (which a server should never send) become roots too, so none is lost.
 */
export function buildTree(observations: readonly TraceObservation[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  for (const observation of observations) {
    if (!nodes.has(observation.id)) nodes.set(observation.id, { observation, children: [], missingParent: null });
  }
  const roots: TreeNode[] = [];
  for (const node of nodes.values()) {
    const parentId = node.observation.parentObservationId;
    const parent = parentId && parentId !== node.observation.id ? nodes.get(parentId) : undefined;
    if (parent) parent.children.push(node);
    else {
      if (parentId && parentId !== node.observation.id) node.missingParent = parentId;
      roots.push(node);
    }
  }
  // Loops, not recursion: a trace may nest thousands deep or hold a parent with 100,000 children.
  const reached = new Set<TreeNode>();
  const visit = (list: readonly TreeNode[]) => {
    const stack = list.slice();
    while (stack.length) {
      const node = stack.pop()!;
      if (reached.has(node)) continue;
      reached.add(node);
      for (const child of node.children) stack.push(child);
    }
  };
  visit(roots);
  for (const node of nodes.values()) {
    if (reached.has(node)) continue;
    // Part of a cycle: cut it here (a node is only ever among its own parent's children).
    const parent = nodes.get(node.observation.parentObservationId!);
    if (parent) parent.children = parent.children.filter((child) => child !== node);
    node.missingParent = node.observation.parentObservationId;
    roots.push(node);
    visit([node]);
  }
  const order = byStart(new Map());
  const lists: TreeNode[][] = [roots];
  while (lists.length) {
    const list = lists.pop()!;
    list.sort(order);
    for (const node of list) if (node.children.length) lists.push(node.children);
  }
  return roots;
}

export interface TreeLine {
  node: TreeNode;
  depth: number;
  /** Box-drawing prefix for this line (`├─ `, `│  └─ `). */
  prefix: string;
  /** Prefix for lines that continue under this one (its input and output). */
  continuation: string;
}

/** Indentation drawn at most this wide (30 levels); deeper, its start is cut and marked with ⋯. */
const MAX_INDENT = 90;

function bounded(indent: string): string {
  return indent.length > MAX_INDENT ? `⋯${indent.slice(indent.length - (MAX_INDENT - 1))}` : indent;
}

/** The tree in reading order, with the prefixes that draw it. */
export function flattenTree(roots: readonly TreeNode[]): TreeLine[] {
  const lines: TreeLine[] = [];
  const stack: Array<{ list: readonly TreeNode[]; next: number; depth: number; indent: string }> = [{ list: roots, next: 0, depth: 0, indent: '' }];
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.list.length) {
      stack.pop();
      continue;
    }
    const node = frame.list[frame.next++]!;
    const last = frame.next === frame.list.length;
    const { depth, indent } = frame;
    const prefix = depth === 0 ? '' : `${indent}${last ? '└─ ' : '├─ '}`;
    const below = depth === 0 ? '' : bounded(`${indent}${last ? '   ' : '│  '}`);
    lines.push({ node, depth, prefix, continuation: `${below}${node.children.length ? '│  ' : '   '}` });
    if (node.children.length) stack.push({ list: node.children, next: 0, depth: depth + 1, indent: below });
  }
  return lines;
}

export interface TraceTotals {
  observations: number;
  byType: Record<string, number>;
  errors: number;
  warnings: number;
  /** Sum of the observations' costs (USD); null when none has a cost. */
  cost: number | null;
  /** The server's own total, when it sent one (v3 trace route). */
  serverCost: number | null;
  tokens: { input: number; output: number; total: number };
  /** Seconds: the server's latency, else from the earliest start to the latest end. */
  latencySeconds: number | null;
  start: string | null;
  end: string | null;
}

export class TotalsSum {
  private readonly cost = new CostSum();
  private readonly tokens = { input: 0, output: 0, total: 0 };
  private readonly byType: Record<string, number> = {};
  private count = 0;
  private errors = 0;
  private warnings = 0;
  private first: number | null = null;
  private last: number | null = null;

  add(o: TraceObservation): void {
    this.count++;
    this.byType[o.type] = (this.byType[o.type] ?? 0) + 1;
    if (o.level === 'ERROR') this.errors++;
    if (o.level === 'WARNING') this.warnings++;
    if (o.cost !== null) this.cost.add(o.cost);
    const sums = tokenSums(o.usage);
    this.tokens.input += sums.input;
    this.tokens.output += sums.output;
    this.tokens.total += sums.total;
    const start = time(o.startTime);
    const end = time(o.endTime) ?? start;
    if (start !== null && (this.first === null || start < this.first)) this.first = start;
    if (end !== null && (this.last === null || end > this.last)) this.last = end;
  }

  /** The totals so far; `server` holds what the v3 trace route sent. */
  result(server: { totalCost?: unknown; latency?: unknown } = {}): TraceTotals {
    // Legacy answers use -1 for "metrics not requested".
    const serverLatency = lenientNumber(server.latency);
    const serverCost = lenientNumber(server.totalCost);
    const { first, last } = this;
    return {
      observations: this.count,
      byType: { ...this.byType },
      errors: this.errors,
      warnings: this.warnings,
      cost: this.cost.count ? this.cost.value : null,
      serverCost: serverCost !== null && serverCost >= 0 ? serverCost : null,
      tokens: { ...this.tokens },
      latencySeconds: serverLatency !== null && serverLatency >= 0 ? serverLatency : first !== null && last !== null ? (last - first) / 1000 : null,
      start: first === null ? null : new Date(first).toISOString(),
      end: last === null ? null : new Date(last).toISOString(),
    };
  }
}

export function traceTotals(observations: readonly TraceObservation[], server: { totalCost?: unknown; latency?: unknown } = {}): TraceTotals {
  const sum = new TotalsSum();
  for (const o of observations) sum.add(o);
  return sum.result(server);
}
