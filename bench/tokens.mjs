#!/usr/bin/env node
// Token counting throughput of llmobs against js-tiktoken, tiktoken (WASM) and gpt-tokenizer, on
// the same generated corpus in the same process. Counts are checked against tiktoken, which is
// what the Langfuse server runs. See bench/README.md.
//
//   node bench/tokens.mjs [--mb 10] [--passes 3] [--encodings o200k_base,cl100k_base] [--only llmobs,...]
//     [--compare DIST[=LABEL]]
//
// --compare DIST adds llmobs from another build's dist/ directory (the "before" side of a change).
// Besides wall time, each row gives the CPU time of the later passes (user + system), which
// waiting for a core on a busy machine does not inflate.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { mixedCorpus } from './corpus.mjs';

const require = createRequire(import.meta.url);
const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '10' },
    passes: { type: 'string', default: '3' },
    encodings: { type: 'string', default: 'o200k_base,cl100k_base' },
    only: { type: 'string' },
    seed: { type: 'string', default: '1' },
    compare: { type: 'string' },
  },
});

const { loadTokenizer } = await import('../dist/tokenizer.mjs').catch(() => {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
});

const docs = mixedCorpus(Number(args.mb) * 1024 * 1024, Number(args.seed));
const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
const passes = Number(args.passes);
console.log(`corpus: ${docs.length} documents, ${(bytes / 1048576).toFixed(2)} MB UTF-8, ${passes} passes, node ${process.version}`);

let libraries = {
  llmobs: async (name) => {
    const t = loadTokenizer(name);
    return (text) => t.count(text);
  },
  'js-tiktoken': async (name) => {
    const { getEncoding } = await import('js-tiktoken');
    const enc = getEncoding(name);
    return (text) => enc.encode(text, 'all').length;
  },
  'tiktoken (WASM)': async (name) => {
    const { get_encoding } = require('tiktoken');
    const enc = get_encoding(name);
    return (text) => enc.encode(text, 'all').length;
  },
  'gpt-tokenizer': async (name) => {
    const { countTokens } = await import(`gpt-tokenizer/encoding/${name}`);
    return (text) => countTokens(text, { allowedSpecial: 'all' });
  },
};
if (args.compare) {
  const [dir, label = 'llmobs (compare)'] = args.compare.split('=');
  const { pathToFileURL } = await import('node:url');
  const { resolve } = await import('node:path');
  const other = await import(pathToFileURL(resolve(dir, 'tokenizer.mjs')).href);
  // Right after llmobs, so that the two run close together.
  const { llmobs, ...peers } = libraries;
  libraries = {
    llmobs,
    [label]: async (name) => {
      const t = other.loadTokenizer(name);
      return (text) => t.count(text);
    },
    ...peers,
  };
}
const only = args.only?.split(',').concat(args.compare ? [args.compare.split('=')[1] ?? 'llmobs (compare)'] : []);

for (const name of args.encodings.split(',')) {
  const { get_encoding } = require('tiktoken');
  const reference = get_encoding(name);
  const expected = docs.map((d) => reference.encode(d, 'all').length);
  reference.free();
  const totalTokens = expected.reduce((a, b) => a + b, 0);
  console.log(`\n${name}: ${totalTokens} tokens (tiktoken)`);
  console.log('library            first pass   later passes (median)   CPU, later passes   mismatched docs');
  for (const [label, make] of Object.entries(libraries)) {
    if (only && !only.includes(label)) continue;
    const setupStart = performance.now();
    const count = await make(name);
    const setupMs = performance.now() - setupStart;
    const times = [];
    const cpu = [];
    let mismatches = 0;
    let delta = 0;
    for (let p = 0; p < passes; p++) {
      const counts = new Array(docs.length);
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      for (let i = 0; i < docs.length; i++) counts[i] = count(docs[i]);
      times.push(performance.now() - t0);
      const c1 = process.cpuUsage(c0);
      cpu.push((c1.user + c1.system) / 1000);
      if (p === 0) {
        for (let i = 0; i < docs.length; i++) {
          if (counts[i] !== expected[i]) {
            mismatches++;
            delta += counts[i] - expected[i];
          }
        }
      }
    }
    const mbps = (ms) => ((bytes / 1048576) / (ms / 1000)).toFixed(2).padStart(7) + ' MB/s';
    // The first pass includes compilation and filling caches; later passes show the steady state.
    const later = times.slice(1).sort((a, b) => a - b);
    const median = later.length > 0 ? later[Math.floor((later.length - 1) / 2)] : times[0];
    const laterCpu = cpu.slice(1).sort((a, b) => a - b);
    const medianCpu = laterCpu.length > 0 ? laterCpu[Math.floor((laterCpu.length - 1) / 2)] : cpu[0];
    console.log(
      `${label.padEnd(18)} ${mbps(times[0])}   ${mbps(median)}           ${mbps(medianCpu)}        ${mismatches}${mismatches ? ` (${delta > 0 ? '+' : ''}${delta} tokens)` : ''}` +
        `   [setup ${setupMs.toFixed(0)} ms]`,
    );
  }
}
