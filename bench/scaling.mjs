#!/usr/bin/env node
// Growth of counting time with the length of one repeated character: 100 KB against 1 MB of
// UTF-8, where the whole text is one or a few huge pieces. Linear growth is 10x; the reference
// (WASM tiktoken) is quadratic here. CPU time, best of a few runs. See bench/README.md.
//
//   node bench/scaling.mjs [--encodings o200k_base,cl100k_base]
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { encodings: { type: 'string', default: 'o200k_base,cl100k_base' } } });
const { loadTokenizer } = await import('../dist/tokenizer.mjs').catch(() => {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
});

const cpuMs = (fn) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const best = (fn, times) => Math.min(...Array.from({ length: times }, () => cpuMs(fn)));

for (const name of args.encodings.split(',')) {
  const tokenizer = loadTokenizer(name);
  console.log(`\n${name}            100 KB      1 MB    growth   (streamed 1 MB in 1 KB chunks)`);
  for (const ch of ['a', ' ', '1', '!', '\n', '\u4e2d', '\u{1f600}', 'ab']) {
    const text = (bytes) => ch.repeat(Math.round(bytes / Buffer.byteLength(ch)));
    const small = text(100 * 1024);
    const large = text(1024 * 1024);
    tokenizer.count(small);
    const s = best(() => tokenizer.count(small), 5);
    const l = best(() => tokenizer.count(large), 5);
    const streamed = best(() => {
      const counter = tokenizer.counter();
      for (let i = 0; i < large.length; i += 1024) counter.write(large.slice(i, i + 1024));
      counter.end();
    }, 2);
    console.log(
      `${JSON.stringify(ch).padEnd(20)} ${s.toFixed(1).padStart(7)} ms ${l.toFixed(1).padStart(7)} ms ${(l / s).toFixed(1).padStart(7)}x   ${streamed.toFixed(1).padStart(7)} ms`,
    );
  }
}
