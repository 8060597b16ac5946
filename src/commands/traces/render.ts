// A trace on the terminal: a header with the trace's fields and totals, then its observations as
// a tree (type and name, model, level, start after the trace's start, duration, tokens, cost,
// status), with --io each one's input and output cut to the terminal's width. Piped, the same
// observations are tab-separated rows (depth first), inputs and outputs whole. And a list of
// traces as a table.
import type { Context } from '../../context.js';
import { tokenSums } from '../../core/numbers.js';
import type { TraceRow } from '../../core/traces/list-row.js';
import { buildTree, flattenTree, type TraceObservation, type TraceTotals } from '../../core/traces/tree.js';
import { displayWidth, truncate } from '../../output/fit.js';
import { countOf, formatCost, formatSeconds, formatTokens } from '../../output/format.js';
import { ioText, type TraceView } from './sinks.js';

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

/** Input or output for a tab-separated cell: whole, on one line (JSON string escapes when it has tabs or line breaks). */
function tsvText(value: unknown): string {
  const text = ioText(value);
  return /[\t\n\r]/.test(text) ? JSON.stringify(text) : text;
}

function offset(start: string | null, traceStart: string | null): string {
  if (!start || !traceStart) return '';
  const ms = Date.parse(start) - Date.parse(traceStart);
  return Number.isNaN(ms) ? '' : `+${formatSeconds(ms / 1000)}`;
}

function tokensText(o: TraceObservation): string {
  if (Object.keys(o.usage).length === 0) return '';
  const t = tokenSums(o.usage);
  return `${formatTokens(t.input)} → ${formatTokens(t.output)}`;
}

/** One line of at most `width` terminal columns (wide characters count 2; never cut inside one). */
function cut(text: string, width: number): string {
  if (width <= 1) return '';
  return truncate(text.replace(/\s+/g, ' '), width);
}

function totalsText(totals: TraceTotals): string {
  const parts: string[] = [];
  parts.push(totals.cost === null ? 'no cost' : formatCost(totals.cost));
  const t = totals.tokens;
  if (t.input || t.output || t.total) parts.push(`${formatTokens(t.input)} in / ${formatTokens(t.output)} out / ${formatTokens(t.total)} tokens`);
  if (totals.latencySeconds !== null) parts.push(formatSeconds(totals.latencySeconds));
  // Most first, then by name: the same line whichever order the observations came in.
  const types = Object.entries(totals.byType).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([type, n]) => `${n} ${type}`).join(', ');
  parts.push(`${countOf(totals.observations, 'observation')}${types ? ` (${types})` : ''}`);
  if (totals.errors) parts.push(`${totals.errors} ERROR`);
  if (totals.warnings) parts.push(`${totals.warnings} WARNING`);
  return parts.join(' · ');
}

export function printTrace(ctx: Context, view: TraceView, io: boolean): void {
  const { out } = ctx;
  const { observations, totals, trace } = view;
  const pairs: Array<[string, string]> = [
    ['trace', str(trace.id)],
    ['name', str(trace.name)],
    ['time', str(trace.timestamp) || str(totals.start)],
    ['user', str(trace.userId)],
    ['session', str(trace.sessionId)],
    ['environment', str(trace.environment)],
    ['release', str(trace.release)],
    ['version', str(trace.version)],
    ['tags', Array.isArray(trace.tags) ? trace.tags.join(', ') : ''],
    ['totals', totalsText(totals)],
  ];
  if (totals.serverCost !== null && totals.cost !== null && Math.abs(totals.serverCost - totals.cost) > 1e-9) {
    pairs.push(['server total', `${formatCost(totals.serverCost)} (the server's own sum)`]);
  }
  out.keyValues(pairs.filter(([, value]) => value !== ''));
  if (io && ((trace.input !== undefined && trace.input !== null) || (trace.output !== undefined && trace.output !== null))) {
    out.keyValues([['input', out.isTTY ? cut(ioText(trace.input), width(ctx) - 13) : ioText(trace.input)], ['output', out.isTTY ? cut(ioText(trace.output), width(ctx) - 13) : ioText(trace.output)]]);
  }
  const scores = (Array.isArray(trace.scores) ? (trace.scores as Array<Record<string, unknown>>) : []).map((s) => `${str(s.name)}=${s.value ?? s.stringValue ?? ''}${s.source ? ` (${str(s.source)})` : ''}`);
  if (scores.length) out.keyValues([['scores', scores.join(', ')]]);
  if (view.source === 'observations-v2') out.hint('Read from the v2 observations API (this server has no v3 trace route): the trace\'s fields are made of its observations, as Langfuse v4 makes them.');

  if (observations.length === 0) {
    out.info('The trace has no observations.');
    return;
  }
  const lines = flattenTree(buildTree(observations));
  const traceStart = str(trace.timestamp) || totals.start;
  if (!out.isTTY) {
    out.line('');
    for (const { node, depth } of lines) {
      const o = node.observation;
      const t = tokenSums(o.usage);
      const cells = [depth, o.id, o.type, o.name ?? '', o.model ?? '', o.level ?? '', o.startTime ?? '', o.durationSeconds ?? '', Object.keys(o.usage).length ? t.input : '', Object.keys(o.usage).length ? t.output : '', o.cost ?? '', o.statusMessage ?? ''];
      if (io) cells.push(tsvText(o.input), tsvText(o.output));
      out.line(cells.map((c) => String(c).replace(/[\t\n\r]/g, ' ')).join('\t'));
    }
    return;
  }

  const c = out.c;
  const rows = lines.map(({ node, prefix, continuation }) => {
    const o = node.observation;
    const name = o.name ? ` ${cut(o.name, 48)}` : '';
    return {
      line: { node, prefix, continuation },
      cells: [`${prefix}${o.type}${name}${node.missingParent ? ' (parent not in trace)' : ''}`, o.model ?? '', o.level ?? '', offset(o.startTime, traceStart), formatSeconds(o.durationSeconds), tokensText(o), o.cost === null ? '' : formatCost(o.cost)],
      status: o.statusMessage ?? '',
    };
  });
  const headers = ['OBSERVATION', 'MODEL', 'LEVEL', 'START', 'DURATION', 'TOKENS', 'COST'];
  const right = new Set([3, 4, 5, 6]);
  // A loop, not Math.max(...rows): a trace can hold more observations than a call takes arguments.
  const widths = headers.map((h, i) => rows.reduce((most, r) => Math.max(most, displayWidth(r.cells[i]!)), h.length));
  const pad = (text: string, i: number) => {
    const fill = ' '.repeat(Math.max(0, widths[i]! - displayWidth(text)));
    return right.has(i) ? `${fill}${text}` : `${text}${fill}`;
  };
  const total = width(ctx);
  out.line('');
  out.line(c.bold(`${headers.map(pad).join('  ')}  STATUS`.trimEnd()));
  for (const row of rows) {
    const o = row.line.node.observation;
    const styled = row.cells.map((cell, i) => {
      const text = pad(cell, i);
      if (i === 0) return text.replace(o.type, c.cyan(o.type));
      if (i === 2 && cell === 'ERROR') return c.red(text);
      if (i === 2 && cell === 'WARNING') return c.yellow(text);
      return text;
    });
    const used = widths.reduce((a, b) => a + b + 2, 0);
    const status = row.status ? cut(row.status, Math.max(10, total - used)) : '';
    out.line(`${styled.join('  ')}  ${o.level === 'ERROR' ? c.red(status) : status}`.trimEnd());
    if (io) {
      const indent = row.line.continuation;
      for (const [label, value] of [['input ', o.input], ['output', o.output]] as const) {
        if (value === undefined || value === null) continue;
        const head = `${indent}  ${label} `;
        out.line(`${head.replace(label, c.dim(label))}${cut(ioText(value), total - head.length)}`);
      }
    }
  }
}

function width(ctx: Context): number {
  const columns = (ctx.io.stdout as { columns?: number }).columns;
  return columns && columns > 40 ? columns : 100;
}

export function printTraces(ctx: Context, rows: TraceRow[]): void {
  if (rows.length === 0) {
    ctx.out.info('No traces match.');
    return;
  }
  ctx.out.table(
    [
      { header: 'TIMESTAMP' },
      { header: 'NAME', style: (t, c) => c.bold(t) },
      { header: 'USER' },
      { header: 'SESSION' },
      { header: 'TAGS' },
      { header: 'OBS', align: 'right' },
      { header: 'COST', align: 'right' },
      { header: 'LATENCY', align: 'right' },
      { header: 'ID' },
    ],
    rows.map((r) => [
      r.timestamp ? r.timestamp.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '',
      r.name ?? '',
      r.userId ?? '',
      r.sessionId ?? '',
      r.tags.join(','),
      r.observations ?? '',
      r.totalCost === null ? '' : formatCost(r.totalCost),
      r.latency === null ? '' : formatSeconds(r.latency),
      r.id,
    ]),
  );
}
