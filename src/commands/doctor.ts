// llmobs doctor: checks everything between this machine and the server, says what is wrong and
// what to do, and exits 9 when a check fails (warnings alone exit 0). Requests are not retried
// and wait at most 15 s: a diagnosis wants the first answer, quickly.
import type { Context } from '../context.js';
import { PreconditionError } from '../errors.js';
import { defineCommand } from './define.js';
import type { Check } from './doctor/check.js';

const DOCTOR_TIMEOUT_MS = 15_000;

export default defineCommand({
  name: 'doctor',
  summary: 'check the setup end to end: Node.js, profile file permissions, settings, proxy, connection, clock, server version, key, and the region a rejected key belongs to; says what to fix (exit 9 when something is wrong)',
  flags: [
    { flags: '--check-regions', help: 'after a 401, try the key on every Langfuse Cloud region to find its own (done without asking only when the key already went to a Langfuse Cloud host)' },
    { flags: '--no-check-regions', help: 'never send the key to another host' },
  ],
  examples: [
    'llmobs doctor',
    'llmobs doctor --profile prod-us --json',
    '# After a 401 from a self-hosted address: is it a Langfuse Cloud key, and of which region?',
    'llmobs doctor --check-regions',
  ],
  async run(ctx, { opts }) {
    const { runChecks } = await import('./doctor/checks.js');
    // commander gives --check-regions true, --no-check-regions false, neither undefined.
    const checkRegions = typeof opts.checkRegions === 'boolean' ? opts.checkRegions : undefined;
    ctx.globals = { ...ctx.globals, retries: 0, timeout: Math.min(ctx.globals.timeout, DOCTOR_TIMEOUT_MS) };
    report(ctx, await runChecks(ctx, checkRegions));
  },
});

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' } as const;

function report(ctx: Context, checks: Check[]): void {
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
    ctx.out.line(failed === 0 && warned === 0 ? 'Everything looks right.' : `${plural(failed, 'problem')}, ${plural(warned, 'warning')}.`);
  }
  if (failed > 0) {
    const first = checks.find((check) => check.status === 'fail')!;
    throw new PreconditionError(`doctor found ${plural(failed, 'problem')}: ${first.title.toLowerCase()}: ${first.summary}`, { hint: first.fix ?? undefined });
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
