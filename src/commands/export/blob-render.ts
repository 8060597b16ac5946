// What `export blob` prints on stdout: --json the run as data; --dry-run the windows it would write.
import type { Context } from '../../context.js';
import type { RunResult } from './blob-run.js';

export function printBlobRun(ctx: Context, result: RunResult): void {
  if (ctx.globals.json) return ctx.out.printJson(result);
  if (!result.dryRun) return;
  if (result.windows.length === 0) {
    return;
  }
  const from = result.startedFrom === 'manifest' ? 'the last manifest' : result.startedFrom === 'from' ? '--from' : "the project's first observation";
  ctx.out.info(`Would write ${result.windows.length === 1 ? '1 window' : `${result.windows.length} windows`}, starting at ${result.start} (${from}):`);
  for (const window of result.windows) {
    ctx.out.line(`${window.minTimestamp}  ${window.maxTimestamp}  ${window.files.map((f) => f.key).join(' ')}  ${window.manifest}`);
  }
}
