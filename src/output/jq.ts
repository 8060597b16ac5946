// `--jq EXPR`: a real jq (jq 1.8, compiled to WebAssembly and shipped in the jq-wasm package)
// applied to whatever a command prints as JSON. Loaded only when --jq is given: the module and
// its wasm are heavy to load, and no other command should pay for them.
//
// Output follows `gh --jq`: strings print raw, other values as JSON, indented on a terminal and
// compact when piped (one value per line). jq runs in a sandbox: `$ENV` and `env` are not the
// process environment, so a filter cannot print a secret from it.
import { UsageError } from '../errors.js';

export interface JqRun {
  /** What to print (each result ends with a newline). */
  output: string;
  /** jq's message when the filter failed part-way (what was printed before stays printed). */
  error?: string | undefined;
}

export interface JqFilter {
  readonly expression: string;
  /** Runs the filter over JSON text: one value, or several (JSON Lines). */
  run(jsonText: string): JqRun;
}

// jq-wasm trims its output at both ends, which would eat the spaces of a raw string result;
// markers around the whole output keep it exact. `inputs` under -n runs the filter once per input
// value, as jq does without -n, and leaves the markers once around everything.
const START = '\u0001';
const END = '\u0002';
const PREFIX = `"\\u0001", (inputs | (`;
const suffix = '\n) | ., "\\n"), "\\u0002"';

export async function loadJqFilter(expression: string, options: { pretty: boolean }): Promise<JqFilter> {
  if (expression.trim() === '') throw new UsageError('--jq needs an expression, e.g. --jq .data[].name');
  const { loadJq } = await import('jq-wasm');
  const jq = await loadJq();
  const program = `${PREFIX}${expression}${suffix}`;
  const flags = ['-n', '-j', ...(options.pretty ? [] : ['-c'])];

  // With no input the program is compiled but the expression never runs: a syntax error or an
  // unknown name is reported before the command sends anything.
  const check = jq.raw('', program, flags);
  if (check.exitCode !== 0) throw new UsageError(`--jq: ${compileMessage(check.stderr, expression)}`, { hint: 'The jq manual: https://jqlang.org/manual/' });

  return {
    expression,
    run(jsonText: string): JqRun {
      const result = jq.raw(jsonText, program, flags);
      let output = result.stdout;
      if (output.startsWith(START)) output = output.slice(1);
      if (output.endsWith(END)) output = output.slice(0, -1);
      else if (output !== '' && !output.endsWith('\n')) output += '\n';
      if (result.exitCode === 0) return { output };
      return { output, error: runtimeMessage(result.stderr) };
    },
  };
}

/** jq's compile error, with positions told in the user's expression rather than the wrapper's. */
export function compileMessage(stderr: string, expression: string): string {
  const first = stderr.split('\n').find((line) => line.startsWith('jq: error')) ?? stderr.trim();
  const text = first.replace(/^jq: error:\s*/, '');
  const at = /^(.*) at <top-level>, line (\d+), column (\d+):?$/.exec(text);
  if (!at) return text.replace(/\s*at <top-level>.*$/, '');
  const [, what = '', lineText = '1', columnText = '1'] = at;
  const line = Number(lineText);
  const lines = expression.split('\n').length;
  if (line > lines) return `${what.replace(/, unexpected .*$/, '')}: the expression ends too early`;
  const column = line === 1 ? Number(columnText) - PREFIX.length : Number(columnText);
  return `${what} (line ${line}, column ${Math.max(column, 0)})`;
}

function runtimeMessage(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('["DEBUG:"'));
  const message = lines.find((line) => line.startsWith('jq: ')) ?? lines[0] ?? 'the filter failed';
  return message.replace(/^jq: error \(at [^)]*\):\s*/, '').replace(/^jq: error:\s*/, '');
}
