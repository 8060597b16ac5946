#!/usr/bin/env node
// Peak memory of counting tokens, per input byte, on the inputs that cost the most: runs of one
// character, long runs that no pattern splits, long digit runs, mixed scripts without spaces,
// and ordinary text. Each measurement is a child process that loads the tokenizer, warms it up on
// a short text, builds the input, counts it and reports its peak RSS; a child that does the same
// without counting (the floor: the input string itself) and one with no input (the baseline) run
// in the same round. See bench/README.md.
//
//   node bench/tokens-memory.mjs [--mib 1,4,16] [--encodings o200k_base,cl100k_base,claude]
//     [--only spaces,letter,...] [--encode] [--compare DIST[=LABEL]] [--compare-mib 1,4]
//
// --compare DIST measures another build's dist/ directory in the same rounds (the "before" side),
// on the sizes of --compare-mib.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    mib: { type: 'string', default: '1,4,16' },
    encodings: { type: 'string', default: 'o200k_base,cl100k_base,claude' },
    only: { type: 'string' },
    encode: { type: 'boolean', default: false },
    compare: { type: 'string' },
    'compare-mib': { type: 'string', default: '1,4' },
  },
});

/**
 * The inputs: each a function of (bytes, random) that returns a string of about that many UTF-8
 * bytes. Random ones repeat a block of 64 K characters, so that making them takes little memory.
 */
const FAMILIES = {
  spaces: (n) => ' '.repeat(n),
  letter: (n) => 'a'.repeat(n),
  newlines: (n) => '\n'.repeat(n),
  '中': (n) => '中'.repeat(n / 3),
  '😀': (n) => '😀'.repeat(n / 4),
  digits: (n, r) => repeated(n, r, [...'0123456789']),
  'random letters': (n, r) => repeated(n, r, [...'abcdefghijklmnopqrstuvwxyz']),
  'random symbols': (n, r) => repeated(n, r, [...'!"#$%&()*+,-./:;<=>?@[]^_`{|}~']),
  'mixed scripts': (n, r) => repeated(n, r, ['abc', 'ÄÖÜ', 'Ωμέγα', 'Привет', '中文字', 'カタカナ', '한국어', 'عربي', '٣٤٥', '123', 'é']),
  prose: (n, r) => repeated(n, r, ['the ', 'tokenizer ', "don't ", 'counts\n', '12345 ', 'ünïcödé ', '東京 ', '😀 ', 'and ', 'JSON: ', '{"a": 1}\n']),
};

function repeated(n, r, parts) {
  const block = [];
  let bytes = 0;
  while (block.length < 65536) {
    const p = parts[Math.floor(r() * parts.length)];
    block.push(p);
    bytes += Buffer.byteLength(p);
  }
  const text = block.join('');
  return text.repeat(Math.max(1, Math.round(n / bytes)));
}

// The child: load, warm up, build, (count), report.
const CHILD = `
const [dist, encoding, family, bytes, mode] = process.argv.slice(1);
const { loadTokenizer } = await import(dist);
const families = ${'{' + Object.entries(FAMILIES).map(([k, f]) => `${JSON.stringify(k)}: ${f.toString()}`).join(',\n') + '}'};
${repeated.toString()}
let a = 7;
const r = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
const t = loadTokenizer(encoding);
t.count('warm up: hello, 中文 😀 12345 \\n  ' + 'x'.repeat(100));
const text = Number(bytes) > 0 ? families[family](Number(bytes), r) : '';
const size = Buffer.byteLength(text);
const started = performance.now();
const tokens = mode === 'floor' ? 0 : mode === 'encode' ? t.encode(text).length : t.count(text);
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ rss: process.resourceUsage().maxRSS * 1024, size, tokens, ms }));
`;

function child(dist, encoding, family, bytes, mode) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, dist, encoding, family, String(bytes), mode], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out);
}

const builds = [{ label: 'this build', dist: pathToFileURL(resolve('dist/tokenizer.mjs')).href }];
if (args.compare) {
  const [dir, label = 'compare'] = args.compare.split('=');
  builds.push({ label, dist: pathToFileURL(resolve(dir, 'tokenizer.mjs')).href });
}
const sizes = args.mib.split(',').map((m) => Math.round(Number(m) * 1048576));
const compareSizes = args['compare-mib'].split(',').map((m) => Math.round(Number(m) * 1048576));
const families = Object.keys(FAMILIES).filter((f) => !args.only || args.only.split(',').includes(f));
const mode = args.encode ? 'encode' : 'count';
const mb = (b) => (b / 1048576).toFixed(1);

console.log(`${mode}(); peak RSS of a child process, bytes per input byte above a child with no input; node ${process.version}`);
console.log('the floor is a child that builds the same input and does not count it: the input string alone\n');
const worst = new Map();
for (const encoding of args.encodings.split(',')) {
  console.log(`${encoding}`);
  console.log(`${'input'.padEnd(16)} ${'size'.padStart(8)}  ${'floor'.padStart(6)}  ${builds.map((b) => `${b.label.padStart(12)} ${'MiB'.padStart(7)} ${'ms'.padStart(7)}`).join('  ')}`);
  const baseline = Object.fromEntries(builds.map((b) => [b.label, child(b.dist, encoding, 'spaces', 0, mode).rss]));
  for (const family of families) {
    for (const bytes of sizes) {
      const floor = child(builds[0].dist, encoding, family, bytes, 'floor');
      const cells = [];
      let tokens;
      for (const b of builds) {
        if (b !== builds[0] && !compareSizes.includes(bytes)) {
          cells.push(''.padStart(28));
          continue;
        }
        const m = child(b.dist, encoding, family, bytes, mode);
        if (tokens !== undefined && m.tokens !== tokens) throw new Error(`${family}: ${b.label} counts ${m.tokens}, not ${tokens}`);
        tokens = m.tokens;
        const perByte = (m.rss - baseline[b.label]) / m.size;
        const key = `${b.label} ${encoding}`;
        if (!worst.has(key) || worst.get(key).perByte < perByte) worst.set(key, { perByte, family, size: m.size });
        cells.push(`${perByte.toFixed(1).padStart(12)} ${mb(m.rss).padStart(7)} ${m.ms.toFixed(0).padStart(7)}`);
      }
      const floorPerByte = (floor.rss - baseline[builds[0].label]) / floor.size;
      console.log(`${family.padEnd(16)} ${mb(floor.size).padStart(5)} MiB  ${floorPerByte.toFixed(1).padStart(6)}  ${cells.join('  ')}`);
    }
  }
  console.log('');
}
console.log('worst case, bytes per input byte above the baseline:');
for (const [key, w] of worst) console.log(`  ${key}: ${w.perByte.toFixed(1)} (${w.family}, ${mb(w.size)} MiB)`);
