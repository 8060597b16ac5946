#!/usr/bin/env node
// `llmobs tokens count --file` on generated files of growing size, up to 1 GB: the peak RSS of
// the process (from /usr/bin/time) must stay flat, and the count must equal the count of the
// block the file repeats, times the number of copies. See bench/README.md.
//
//   node bench/tokens-file.mjs [--mb 64,256,1024] [--encoding o200k_base] [--compare DIR[=LABEL]]
//     [--compare-mb 64,256] [--dir /tmp]
//
// The file is one block repeated: the mixed corpus of corpus.mjs (16 MB) with the worst cases
// between its documents (runs of one character, a run of letters without spaces, a digit run,
// mixed scripts without spaces, each of 1 M characters). The block ends with ".\n" and starts
// with a letter, a place where counting the two sides apart cannot differ from counting the
// whole; the bench checks that on two copies. --compare runs another build's bin/llmobs.js (a
// checkout with its own build) on the sizes of --compare-mb, in the same run.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mixedCorpus, rng } from './corpus.mjs';

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '64,256,1024' },
    encoding: { type: 'string', default: 'o200k_base' },
    compare: { type: 'string' },
    'compare-mb': { type: 'string', default: '64,256' },
    dir: { type: 'string', default: tmpdir() },
  },
});

const { loadTokenizer } = await import('../dist/tokenizer.mjs').catch(() => {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
});

const MILLION = 1_000_000;
const r = rng(3);
const letters = (n, alphabet) => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
const scripts = ['abc', 'Ωμέγα', 'Привет', '中文字', 'カタカナ', '한국어', 'عربي', '٣٤٥', '123', '😀'];
const worst = [
  ' '.repeat(MILLION),
  'a'.repeat(MILLION),
  '\n'.repeat(MILLION),
  '!'.repeat(MILLION),
  letters(MILLION, 'abcdefghijklmnopqrstuvwxyz'),
  letters(MILLION, '0123456789'),
  Array.from({ length: MILLION / 4 }, () => scripts[Math.floor(r() * scripts.length)]).join(''),
];
const docs = mixedCorpus(16 * 1048576, 1);
// The worst cases sit between documents, each after a space so that it starts a piece of its own.
const parts = ['Start. '];
docs.forEach((d, i) => {
  parts.push(d, '\n');
  if (i % Math.floor(docs.length / worst.length) === 0 && worst.length > 0) parts.push(' ', worst.shift(), '\n');
});
parts.push('End.\n');
const block = Buffer.from(parts.join(''));
const blockText = block.toString();

const tokenizer = loadTokenizer(args.encoding);
const blockTokens = tokenizer.count(blockText);
const twice = tokenizer.count(blockText + blockText);
if (twice !== 2 * blockTokens) throw new Error(`the block does not repeat cleanly: ${twice} tokens for two copies, ${blockTokens} for one`);
console.log(`block: ${(block.length / 1048576).toFixed(1)} MB, ${blockTokens} tokens (${args.encoding}); two copies: ${twice}; node ${process.version}`);

const dir = mkdtempSync(join(args.dir, 'llmobs-tokens-file-'));
const free = statfsSync(dir).bavail * statfsSync(dir).bsize;
const largest = Math.max(...args.mb.split(',').map(Number));
if (free < largest * 1048576 * 1.5) throw new Error(`not enough room in ${dir}: ${(free / 2 ** 30).toFixed(1)} GB free`);

const builds = [{ label: 'this build', bin: resolve('bin/llmobs.js'), sizes: args.mb.split(',').map(Number) }];
if (args.compare) {
  const [d, label = 'compare'] = args.compare.split('=');
  builds.push({ label, bin: resolve(d, 'bin/llmobs.js'), sizes: args['compare-mb'].split(',').map(Number) });
}

/** Runs `tokens count --file` under /usr/bin/time: its count (or error), peak RSS in bytes and wall time in seconds. */
function measure(bin, file) {
  const run = spawnSync('/usr/bin/time', ['-f', '%M %e', process.execPath, bin, 'tokens', 'count', '--file', file, '--encoding', args.encoding, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  const lines = run.stderr.trim().split('\n');
  const [rssKb, wall] = lines.at(-1).split(' ').map(Number);
  const tokens = run.status === 0 ? JSON.parse(run.stdout).tokens : `exit ${run.status}: ${lines[0]}`;
  return { tokens, rss: rssKb * 1024, wall };
}

try {
  const idle = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, builds[0].bin, 'tokens', 'count', 'hello'], { encoding: 'utf8' });
  console.log(`\`tokens count hello\` peaks at ${(Number(idle.stderr.trim().split('\n').at(-1)) / 1024).toFixed(0)} MB`);
  console.log('\nbuild          file       tokens          expected           peak RSS    wall');
  for (const mb of [...new Set(builds.flatMap((b) => b.sizes))].sort((a, b) => a - b)) {
    const copies = Math.max(1, Math.round((mb * 1048576) / block.length));
    const file = join(dir, 'text.txt');
    const fd = openSync(file, 'w');
    for (let i = 0; i < copies; i++) writeSync(fd, block);
    closeSync(fd);
    const bytes = copies * block.length;
    const expected = copies * blockTokens;
    for (const b of builds) {
      if (!b.sizes.includes(mb)) continue;
      const m = measure(b.bin, file);
      console.log(
        `${b.label.padEnd(14)} ${`${(bytes / 1048576).toFixed(0)} MB`.padStart(7)}  ${String(m.tokens).padStart(14)}  ${String(expected).padStart(14)}${m.tokens === expected ? ' ok' : ' !!'}  ${`${(m.rss / 1048576).toFixed(0)} MB`.padStart(9)}  ${`${m.wall.toFixed(0)} s`.padStart(6)}`,
      );
    }
    rmSync(file);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
