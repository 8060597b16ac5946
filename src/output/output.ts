// The one place that prints. Data goes to stdout; warnings, hints, progress and errors to stderr.
// On a terminal: tables with headers and colour. Piped: tab-separated, no header, no colour.
// --csv: RFC 4180 CSV with a header row, cells neutralised against CSV injection (core/csv.ts).
// --jq: every JSON value printed goes through the filter (src/output/jq.ts) instead.
import type { Chalk as ChalkType, ChalkInstance } from 'chalk';
import type TableType from 'cli-table3';
import { CliError, ExitCode } from '../errors.js';
import { type ColorLevel, colorLevel } from './color.js';
import { escapeJson, escapeStyledValue, escapeText, escapeValue } from './escape.js';
import { csvField } from '../core/csv.js';
import { fitTable } from './fit.js';
import type { JqFilter } from './jq.js';
import type { OutStream } from '../types.js';

// cli-table3 loads only when stdout is a terminal (Context.prepare() calls loadTables()): piped
// and JSON output never draw tables, and commands such as `tokens count` start faster without it.
// An import() rather than require(), so that the bundle carries it.
let Table: typeof TableType | undefined;
export async function loadTables(): Promise<void> {
  Table ??= (await import('cli-table3')).default;
}
function loadTable(): typeof TableType {
  // An Output made without Context.prepare() (tests) loads it here, from node_modules.
  Table ??= process.getBuiltinModule('node:module').createRequire(import.meta.url)('cli-table3') as typeof TableType;
  return Table;
}

// chalk loads only when something is coloured (Context.prepare() calls loadColors()): its terminal
// detection is work at start, and piped, NO_COLOR or --no-color output styles nothing. Uncoloured,
// the styles are a stand-in that returns the text as chalk's level 0 does.
let ChalkClass: typeof ChalkType | undefined;
export async function loadColors(): Promise<void> {
  ChalkClass ??= (await import('chalk')).Chalk;
}

/** chalk's methods that take arguments and return a style (rgb(1, 2, 3), hex('#fff')...). */
const STYLE_FACTORIES = new Set(['rgb', 'hex', 'ansi256', 'bgRgb', 'bgHex', 'bgAnsi256']);

/** What `new Chalk({ level: 0 })` does, without chalk: every style, chained or not, returns the text. */
const PLAIN: ChalkInstance = new Proxy((() => {}) as unknown as ChalkInstance, {
  get: (_target, key) => {
    if (key === 'level') return 0;
    if (typeof key === 'string' && STYLE_FACTORIES.has(key)) return () => PLAIN;
    // chalk prints `visible` text only when it colours.
    if (key === 'visible') return VISIBLE;
    return PLAIN;
  },
  apply: (_target, _this, args: unknown[]) => args.join(' '),
});
const VISIBLE: ChalkInstance = new Proxy((() => {}) as unknown as ChalkInstance, {
  get: (_target, key) => (key === 'level' ? 0 : typeof key === 'string' && STYLE_FACTORIES.has(key) ? () => VISIBLE : VISIBLE),
  apply: () => '',
});

function styles(level: ColorLevel): ChalkInstance {
  if (ChalkClass) return new ChalkClass({ level });
  if (level === 0) return PLAIN;
  throw new Error('colours are on but chalk is not loaded: call loadColors() before making an Output');
}

export interface OutputOptions {
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  json: boolean;
  noColor: boolean;
  /** Removes known secrets from everything written; identity when none are known. */
  redact?: (text: string) => string;
  /** The same for messages on stderr, which may also remove what merely looks like a secret. */
  redactMessage?: (text: string) => string;
  /** Whether any secret is known (raw bytes can then skip redaction). */
  redacting?: () => boolean;
  /** Tables as CSV (--csv). */
  csv?: boolean | undefined;
  /** Header rows: true adds them to piped tables, false removes them everywhere; default per format. */
  headers?: boolean | undefined;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Styling for terminal output only. */
  style?: (text: string, c: ChalkInstance) => string;
  /** On a terminal narrower than the table, this column may be cut down to this many characters. */
  shrinkTo?: number;
  /** When even cut columns do not fit, columns with this set are left out, lowest first. */
  dropOrder?: number;
}

export type Cell = string | number | boolean | null | undefined;

export interface ErrorReport {
  code: string;
  message: string;
  exitCode: number;
  status?: number | undefined;
  hint?: string | undefined;
  details?: unknown;
}

export class Output {
  readonly json: boolean;
  readonly isTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Styles for stdout. */
  readonly c: ChalkInstance;
  /** Styles for stderr. */
  readonly e: ChalkInstance;
  private readonly stdout: OutStream;
  private readonly stderr: OutStream;
  private readonly redact: (text: string) => string;
  private readonly redactMessage: (text: string) => string;
  private readonly redacting: () => boolean;
  private readonly csv: boolean;
  private readonly headers: boolean | undefined;
  private filter: JqFilter | undefined;
  /** Text written while --jq is on that does not end a line yet. */
  private pendingJson = '';
  /** What was printed, so a flag that had nothing to act on can say so. */
  private printed = { json: false };

  constructor(options: OutputOptions) {
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    this.json = options.json;
    this.isTTY = options.stdout.isTTY === true;
    this.stderrIsTTY = options.stderr.isTTY === true;
    this.redact = options.redact ?? ((text) => text);
    this.redactMessage = options.redactMessage ?? this.redact;
    this.redacting = options.redacting ?? (() => options.redact !== undefined);
    this.csv = options.csv === true;
    this.headers = options.headers;
    const level = (isTTY: boolean) => colorLevel({ env: options.env, isTTY, noColorFlag: options.noColor });
    this.c = styles(level(this.isTTY));
    this.e = styles(level(this.stderrIsTTY));
  }

  /** From now on, JSON output goes through this jq filter (--jq). */
  useFilter(filter: JqFilter): void {
    this.filter = filter;
  }

  /** Text to stdout: exact when piped, control characters made visible on a terminal. */
  write(text: string): void {
    if (this.filter) return this.filterLines(text);
    this.stdout.write(this.redact(this.isTTY ? escapeText(text, this.c.level > 0) : text));
  }

  /** Text before the data that --jq leaves alone (the status line and headers of `api --include`). */
  writeHead(text: string): void {
    this.stdout.write(this.redact(this.isTTY ? escapeText(text, false) : text));
  }

  /** JSON text to stdout; on a terminal DEL and C1 controls are escaped too (still valid JSON). */
  private writeJson(text: string): void {
    if (this.filter) return this.filterLines(text);
    this.stdout.write(this.redact(this.isTTY ? escapeJson(text) : text));
  }

  /** JSON lines to stdout that wait when the reader is slower (for long streams of results). */
  async writeChunk(text: string): Promise<void> {
    if (this.filter) return this.filterLines(text);
    if (this.stdout.write(this.redact(this.isTTY ? escapeJson(text) : text)) === false && typeof (this.stdout as { once?: unknown }).once === 'function') {
      await new Promise<void>((resolve) => (this.stdout as NodeJS.WritableStream).once('drain', () => resolve()));
    }
  }

  /** UTF-8 bytes to stdout, with the same backpressure as `writeChunk`. */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    if (this.filter) return this.filterLines(Buffer.from(bytes).toString('utf8'));
    // Secrets are removed from text; decode only when there could be something to remove.
    if (this.redacting() || this.isTTY) {
      await this.writeChunk(Buffer.from(bytes).toString('utf8'));
      return;
    }
    if (this.stdout.write(bytes) === false && typeof (this.stdout as { once?: unknown }).once === 'function') {
      await new Promise<void>((resolve) => (this.stdout as NodeJS.WritableStream).once('drain', () => resolve()));
    }
  }

  /** A progress line on stderr, drawn only when stderr is a terminal. */
  progress(): Progress {
    return new Progress(this.stderrIsTTY ? this.stderr : undefined);
  }

  line(text = ''): void {
    this.write(`${text}\n`);
  }

  /** Stable JSON on stdout: two-space indented, keys in the order the value was built. */
  printJson(value: unknown): void {
    this.printed.json = true;
    if (this.filter) return this.runFilter(JSON.stringify(value));
    this.writeJson(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** One compact JSON document per line (for streams of results). */
  printJsonLine(value: unknown): void {
    this.printed.json = true;
    if (this.filter) return this.runFilter(JSON.stringify(value));
    this.writeJson(`${JSON.stringify(value)}\n`);
  }

  /** Prints a table; returns whether cells were cut to fit the terminal. */
  table(columns: Column[], rows: Cell[][]): boolean {
    let text = rows.map((row) => row.map((cell) => (this.isTTY ? escapeValue(cellText(cell), this.csv) : cellText(cell))));
    let cut = false;
    // CSV and piped tables go out in one write, not one per row.
    if (this.csv) {
      const lines = this.headers !== false ? [columns.map((col) => csvField(col.header)).join(',')] : [];
      for (const row of text) lines.push(row.map(csvField).join(','));
      if (lines.length > 0) this.write(`${lines.join('\n')}\n`);
      return cut;
    }
    if (!this.isTTY) {
      const lines = this.headers === true ? [columns.map((col) => tsvSafe(col.header)).join('\t')] : [];
      for (const row of text) lines.push(row.map(tsvSafe).join('\t'));
      if (lines.length > 0) this.write(`${lines.join('\n')}\n`);
      return cut;
    }
    const width = this.stdout.columns;
    if (width && width > 0 && columns.some((col) => col.shrinkTo !== undefined)) {
      const fitted = fitTable(columns, text, width);
      cut = fitted.cut;
      columns = fitted.columns;
      text = fitted.rows;
    }
    const Table = loadTable();
    const table = new Table({
      head: this.headers === false ? [] : columns.map((col) => this.c.bold(col.header)),
      colAligns: columns.map((col) => col.align ?? 'left'),
      chars: BORDERLESS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
    });
    for (const row of text) {
      table.push(row.map((cell, i) => (columns[i]?.style && cell !== '' ? columns[i].style(cell, this.c) : cell)));
    }
    this.line(table.toString().replace(/ +$/gm, ''));
    return cut;
  }

  /** Label/value pairs: aligned on a terminal; piped (or --csv) a two-column table, FIELD and VALUE. */
  keyValues(pairs: Array<readonly [string, Cell]>): void {
    if (this.csv || !this.isTTY) {
      this.table([{ header: 'FIELD' }, { header: 'VALUE' }], pairs.map(([label, value]) => [label, value]));
      return;
    }
    const width = Math.max(0, ...pairs.map(([label]) => label.length));
    for (const [label, value] of pairs) {
      // Values may carry their own styling (a dimmed source, a coloured status): kept, while any
      // other control character is made visible.
      this.line(`${this.c.bold(escapeValue(label).padEnd(width))}  ${escapeStyledValue(cellText(value), this.c.level > 0)}`);
    }
  }

  /**
   * Content exactly as stored when piped (a script gets its bytes back); on a terminal it ends
   * with a line break, so the prompt does not land on its last line.
   */
  content(text: string): void {
    this.write(this.isTTY && !text.endsWith('\n') ? `${text}\n` : text);
  }

  /**
   * After a command succeeded: filters what is left of a JSON stream, and says when --jq had
   * nothing to act on.
   */
  finish(): void {
    if (this.filter) {
      if (this.pendingJson.trim() !== '') {
        const rest = this.pendingJson;
        this.pendingJson = '';
        this.runFilter(rest);
      }
      if (!this.printed.json) this.warn('--jq had nothing to filter: this command printed no JSON');
    }
  }

  /** A heading line for human output on a terminal. */
  heading(text: string): void {
    this.line(this.isTTY ? this.c.bold(escapeValue(text)) : text);
  }

  private filterLines(text: string): void {
    const all = this.pendingJson + text;
    const cut = all.lastIndexOf('\n');
    if (cut === -1) {
      this.pendingJson = all;
      return;
    }
    this.pendingJson = all.slice(cut + 1);
    const lines = all.slice(0, cut + 1);
    if (lines.trim() === '') return;
    this.printed.json = true;
    this.runFilter(lines);
  }

  private runFilter(jsonText: string): void {
    const result = this.filter!.run(jsonText);
    if (result.output) this.stdout.write(this.redact(this.isTTY ? escapeText(result.output, false) : result.output));
    if (result.error !== undefined) {
      if (!isJsonLines(jsonText)) throw new JqFailedError('this command printed text, not JSON, so there is nothing to filter', 'Leave out --jq for this command.');
      throw new JqFailedError(result.error);
    }
  }

  // ---- stderr ------------------------------------------------------------------------------

  /** A message on stderr; control characters are always made visible (logs end up on terminals too). */
  info(message: string): void {
    this.stderr.write(this.redactMessage(`${escapeText(message, this.e.level > 0)}\n`));
  }

  success(message: string): void {
    this.info(this.stderrIsTTY ? `${this.e.green('✓')} ${message}` : message);
  }

  warn(message: string): void {
    this.info(`${this.e.yellow('warning:')} ${message}`);
  }

  hint(message: string): void {
    this.info(this.e.dim(message));
  }

  error(report: ErrorReport): void {
    if (this.json) {
      const error: Record<string, unknown> = { code: report.code, message: report.message, exitCode: report.exitCode };
      if (report.status !== undefined) error.status = report.status;
      if (report.hint !== undefined) error.hint = report.hint;
      if (report.details !== undefined) error.details = report.details;
      this.stderr.write(this.redactMessage(`${escapeJson(JSON.stringify({ error }))}\n`));
      return;
    }
    this.info(`${this.e.red('error:')} ${report.message}`);
    if (report.hint) this.info(this.e.dim(report.hint));
  }
}

/** A --jq filter that failed on the output (the command itself had done its work). */
export class JqFailedError extends CliError {
  constructor(message: string, hint = 'The command itself completed; only filtering its output failed.') {
    super(`--jq: ${message}`, ExitCode.usage, 'jq_failed', { hint });
  }
}

/** Redraws one status line on a terminal at most every 200 ms; a no-op elsewhere. */
export class Progress {
  private last = 0;
  private drawn = false;
  constructor(private readonly stream: OutStream | undefined) {}

  update(text: () => string, now = Date.now()): void {
    if (!this.stream || now - this.last < 200) return;
    this.last = now;
    this.drawn = true;
    this.stream.write(`\r\u001b[2K${text()}`);
  }

  clear(): void {
    if (this.stream && this.drawn) this.stream.write('\r\u001b[2K');
    this.drawn = false;
  }
}

function cellText(value: Cell): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

function tsvSafe(text: string): string {
  return text.replace(/[\t\n\r]/g, ' ');
}

function isJsonLines(text: string): boolean {
  return isJson(text) || text.split('\n').every((line) => line.trim() === '' || isJson(line));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};
