// What llmobs doctor prints: one line per check (a mark, its title and what it found), its details
// and what to do; or the checks as JSON. A failed check makes the command fail (exit 9).
import type { Context } from '../../context.js';
import { PreconditionError } from '../../errors.js';
import { countOf } from '../../output/format.js';
import type { Check } from './check.js';

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' } as const;

/** Each check with its mark, details and fix, or all of them as JSON; a failed one is the error. */
export function report(ctx: Context, checks: Check[]): void {
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  if (ctx.globals.json) {
    ctx.out.printJson({ ok: failed === 0, problems: failed, warnings: warned, checks });
  } else {
    const { c } = ctx.out;
    const width = Math.max(...checks.map((check) => check.title.length));
    const paint = { ok: c.green, warn: c.yellow, fail: c.red, skip: c.dim } as const;
    for (const check of checks) {
      ctx.out.line(`${paint[check.status](MARK[check.status])} ${c.bold(check.title.padEnd(width))}  ${check.status === 'skip' ? c.dim(check.summary) : check.summary}`);
      for (const detail of check.details) ctx.out.line(`  ${' '.repeat(width)}  ${c.dim(detail)}`);
      if (check.fix && check.status !== 'ok') {
        const [first, ...rest] = check.fix.split('\n');
        ctx.out.line(`  ${' '.repeat(width)}  ${paint[check.status]('fix:')} ${first}`);
        for (const line of rest) ctx.out.line(`  ${' '.repeat(width)}       ${line}`);
      }
    }
    ctx.out.line();
    ctx.out.line(failed === 0 && warned === 0 ? 'Everything looks right.' : `${countOf(failed, 'problem')}, ${countOf(warned, 'warning')}.`);
  }
  if (failed > 0) {
    const first = checks.find((check) => check.status === 'fail')!;
    throw new PreconditionError(`doctor found ${countOf(failed, 'problem')}: ${first.title.toLowerCase()}: ${first.summary}`, { hint: first.fix ?? undefined });
  }
}
