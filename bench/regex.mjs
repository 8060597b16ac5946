#!/usr/bin/env node
// Model-name matching on the patterns that make a backtracking engine explode, against names of
// 10 to 10,000 characters: llmobs' automata (what `models match`, `estimate` and the local
// server run), V8's RegExp on the same pattern (in a worker that is stopped after --limit-ms),
// and re2js (RE2 in JavaScript) where the pattern is RE2 syntax. Microseconds per match, best
// of a few runs; "growth" is the time at 10,000 characters over the time at 1,000 (linear: ~10).
// See bench/README.md.
//
//   node bench/regex.mjs [--limit-ms 2000] [--lengths 10,100,1000,10000]
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

const { values: args } = parseArgs({
  options: { 'limit-ms': { type: 'string', default: '2000' }, lengths: { type: 'string', default: '10,100,1000,10000' } },
});
const limitMs = Number(args['limit-ms']);
const lengths = args.lengths.split(',').map(Number);

const { compilePattern, testPattern } = await import('../dist/pattern.mjs').catch(() => {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
});
const re2js = await import('re2js').catch(() => undefined);

// [pattern as stored (Postgres ARE), the same in JS syntax, a subject of length n that fails late]
const CASES = [
  ['(a+)+$', '(a+)+$', (n) => `${'a'.repeat(n - 1)}!`],
  ['^(a|a)*$', '^(a|a)*$', (n) => `${'a'.repeat(n - 1)}!`],
  ['^(a|aa)+$', '^(a|aa)+$', (n) => `${'a'.repeat(n - 1)}b`],
  ['^(a*)*b$', '^(a*)*b$', (n) => 'a'.repeat(n)],
  ['^((a+)*)*c$', '^((a+)*)*c$', (n) => 'a'.repeat(n)],
  ['(?i)^(\\w+\\s?)*$', '^(\\w+\\s?)*$', (n) => `${'word '.repeat(Math.ceil(n / 5)).slice(0, n - 1)}!`],
  ['^(.*a){12}$', '^(.*a){12}$', (n) => `${'a'.repeat(n - 1)}b`],
  ['^(gpt|gpt-4|gpt-4o|g|gp)+-mini$', '^(gpt|gpt-4|gpt-4o|g|gp)+-mini$', (n) => 'gpt-4o'.repeat(Math.ceil(n / 6)).slice(0, n)],
  ['(?i)^(openai/)?(gpt-4o)$', '^(openai\\/)?(gpt-4o)$', (n) => `openai/${'x'.repeat(n - 7)}`],
];

const cpuUs = (fn, reps) => {
  const start = process.cpuUsage();
  for (let i = 0; i < reps; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / reps;
};
const best = (fn, reps, times = 3) => Math.min(...Array.from({ length: times }, () => cpuUs(fn, reps)));
const repsFor = (n) => Math.max(1, Math.round(20_000 / n));

function v8Time(source, flags, subject) {
  return new Promise((resolve) => {
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const re = new RegExp(workerData.source, workerData.flags);
       const reps = workerData.reps;
       const start = process.hrtime.bigint();
       for (let i = 0; i < reps; i++) re.test(workerData.subject);
       parentPort.postMessage(Number(process.hrtime.bigint() - start) / 1000 / reps);`,
      { eval: true, workerData: { source, flags, subject, reps: repsFor(subject.length) } },
    );
    const timer = setTimeout(() => {
      worker.terminate();
      resolve(undefined);
    }, limitMs);
    worker.once('message', (us) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(us);
    });
    worker.once('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

const fmt = (us) => (us === undefined ? `>${limitMs / 1000} s`.padStart(10) : us === null ? 'n/a'.padStart(10) : `${us < 10 ? us.toFixed(2) : us.toFixed(0)}`.padStart(10));
const growth = (a, b) => (a && b ? `${(b / a).toFixed(1)}x` : '-').padStart(8);

console.log(`lengths ${lengths.join(', ')}; µs per match (CPU, best of 3); V8 stopped after ${limitMs} ms`);
for (const [are, js, subjectOf] of CASES) {
  const compiled = compilePattern(are);
  if (compiled.status !== 'ok') throw new Error(`${are}: ${compiled.reason}`);
  const icase = are.startsWith('(?i)');
  const re2 = re2js ? re2js.RE2JS.compile(js, icase ? re2js.RE2JS.CASE_INSENSITIVE : 0) : undefined;
  console.log(`\n${are}`);
  console.log(`${'engine'.padEnd(10)}${lengths.map((n) => String(n).padStart(10)).join('')}  growth (last two)`);
  const rows = { llmobs: [], v8: [], re2js: [] };
  for (const n of lengths) {
    const subject = subjectOf(n);
    const expected = testPattern(compiled, subject).status;
    rows.llmobs.push(best(() => testPattern(compiled, subject), repsFor(n)));
    rows.v8.push(await v8Time(js, icase ? 'i' : '', subject));
    if (re2) {
      if ((re2.matcher(subject).find() ? 'match' : 'no-match') !== expected) throw new Error(`re2js disagrees on ${are}`);
      rows.re2js.push(best(() => re2.matcher(subject).find(), repsFor(n)));
    }
  }
  for (const [name, times] of Object.entries(rows)) {
    if (times.length === 0) continue;
    console.log(`${name.padEnd(10)}${times.map(fmt).join('')}  ${growth(times.at(-2), times.at(-1))}`);
  }
}
if (!re2js) console.log('\n(re2js is not installed: npm install re2js to compare with it)');
