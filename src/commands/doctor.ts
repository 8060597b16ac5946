// llmobs doctor: checks everything between this machine and the server, says what is wrong and
// what to do, and exits 9 when a check fails (warnings alone exit 0). Requests are not retried
// and wait at most 15 s: a diagnosis wants the first answer, quickly.
import { defineCommand } from './define.js';

const DOCTOR_TIMEOUT_MS = 15_000;

export default defineCommand({
  name: 'doctor',
  summary: 'check the setup end to end: Node.js, profile file permissions, settings, proxy, connection, clock, server version, key, the region a rejected key belongs to, and the Langfuse v4 write mode the server runs; says what to fix (exit 9 when something is wrong)',
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
    const [{ runChecks }, { report }] = await Promise.all([import('./doctor/checks.js'), import('./doctor/report.js')]);
    // commander gives --check-regions true, --no-check-regions false, neither undefined.
    const checkRegions = typeof opts.checkRegions === 'boolean' ? opts.checkRegions : undefined;
    ctx.globals = { ...ctx.globals, retries: 0, timeout: Math.min(ctx.globals.timeout, DOCTOR_TIMEOUT_MS) };
    report(ctx, await runChecks(ctx, checkRegions));
  },
});
