// A seeded, generated mixed corpus for the benchmarks: prose, source code, CJK, emoji, white
// space and text with invisible characters, as documents of 1-16 KB.

export function rng(seed) {
  // mulberry32
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the of and to in is was for on that with as by at from his her they we you it this be are have had not but ' +
  'which one all were when there can an been has more if will would who so what about out up into than its ' +
  'time only new some could these two may first then do any like my now over such our man me even most made ' +
  'after also did many before must through back years where much your way well down should because each just ' +
  'those people how too little state good very make world still own see men work long get here between both ' +
  'life being under never day same another know while last might us great old year off come since against go ' +
  'came right used take three tokenizer observability latency prompt completion generation trace span model ' +
  'pricing usage request response streaming language evaluation dataset experiment production deployment'
).split(' ');
const CONTRACTIONS = ["don't", "it's", "we'll", "they're", "I've", "I'm", "she'd", "can't", "WON'T", "You're"];
const IDENTS = ['value', 'result', 'index', 'items', 'count', 'tokenizer', 'config', 'options', 'handler', 'buffer', 'offset', 'length'];
const EMOJI = ['😀', '🚀', '🎉', '👍🏽', '❤️', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇺🇸', '🇯🇵', '🧑🏻‍💻', '✨', '🤖', '🔥', '😂', '🙏🏿'];
const INVISIBLE = ['\ufeff', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060', '\u0085', '\u00a0', '\u3000'];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

function sentence(r) {
  const n = 4 + Math.floor(r() * 14);
  const words = [];
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.06) words.push(pick(r, CONTRACTIONS));
    else if (x < 0.1) words.push(String(Math.floor(r() * 100000)));
    else words.push(pick(r, WORDS));
  }
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return words.join(' ') + pick(r, ['.', '.', '.', '!', '?', ',', ';', ':']);
}

const generators = {
  prose(r) {
    let s = '';
    const paras = 1 + Math.floor(r() * 4);
    for (let p = 0; p < paras; p++) {
      const n = 2 + Math.floor(r() * 6);
      for (let i = 0; i < n; i++) s += sentence(r) + ' ';
      s += '\n\n';
    }
    return s;
  },
  code(r) {
    let s = '';
    const fns = 1 + Math.floor(r() * 4);
    for (let f = 0; f < fns; f++) {
      const name = pick(r, IDENTS) + pick(r, ['Of', 'For', 'With', '']) + pick(r, IDENTS).replace(/^./, (c) => c.toUpperCase());
      s += `export function ${name}(${pick(r, IDENTS)}, ${pick(r, IDENTS)} = ${Math.floor(r() * 100)}) {\n`;
      const lines = 2 + Math.floor(r() * 10);
      for (let i = 0; i < lines; i++) {
        const indent = '  '.repeat(1 + Math.floor(r() * 3));
        const x = r();
        if (x < 0.2) s += `${indent}// ${sentence(r)}\n`;
        else if (x < 0.4) s += `${indent}if (${pick(r, IDENTS)}.length >= ${Math.floor(r() * 1000)}) return null;\n`;
        else if (x < 0.6) s += `${indent}const ${pick(r, IDENTS)}_${Math.floor(r() * 10)} = await fetch("/api/public/${pick(r, WORDS)}?limit=${Math.floor(r() * 50)}");\n`;
        else if (x < 0.8) s += `${indent}${pick(r, IDENTS)}[${pick(r, IDENTS)}++] = { id: 0x${Math.floor(r() * 65535).toString(16)}, name: '${pick(r, WORDS)}' };\n`;
        else s += `${indent}for (let i = 0; i < ${pick(r, IDENTS)}.length; i++) {\n${indent}\t${pick(r, IDENTS)} += i * 2;\n${indent}}\n`;
      }
      s += '}\n\n';
    }
    return s;
  },
  cjk(r) {
    let s = '';
    const n = 20 + Math.floor(r() * 200);
    for (let i = 0; i < n; i++) {
      const x = r();
      if (x < 0.6) s += String.fromCodePoint(0x4e00 + Math.floor(r() * 3000));
      else if (x < 0.75) s += String.fromCodePoint(0x3041 + Math.floor(r() * 83));
      else if (x < 0.85) s += String.fromCodePoint(0xac00 + Math.floor(r() * 2000));
      else if (x < 0.95) s += pick(r, ['，', '。', '、', '「', '」', '？', '！']);
      else s += pick(r, [' ', '\n', 'AI', '2024', 'GPT-4o']);
    }
    return s + '\n';
  },
  emoji(r) {
    let s = '';
    const n = 10 + Math.floor(r() * 60);
    for (let i = 0; i < n; i++) s += r() < 0.5 ? pick(r, EMOJI) : ' ' + pick(r, WORDS) + (r() < 0.3 ? ' ' : '');
    return s + '\n';
  },
  whitespace(r) {
    let s = '';
    const n = 5 + Math.floor(r() * 40);
    for (let i = 0; i < n; i++) {
      s += pick(r, [' ', '\t', '\n', '\r\n', '  ', '    ']).repeat(1 + Math.floor(r() * 12));
      s += r() < 0.7 ? pick(r, WORDS) : JSON.stringify({ [pick(r, IDENTS)]: Math.floor(r() * 100) }, null, 2);
    }
    return s;
  },
  invisible(r) {
    let s = '';
    const n = 5 + Math.floor(r() * 30);
    for (let i = 0; i < n; i++) s += pick(r, INVISIBLE) + sentence(r) + (r() < 0.3 ? pick(r, INVISIBLE) : ' ');
    return s;
  },
};

const MIX = [
  ['prose', 0.4],
  ['code', 0.25],
  ['cjk', 0.12],
  ['emoji', 0.05],
  ['whitespace', 0.12],
  ['invisible', 0.06],
];

/** Documents totalling about `bytes` bytes of UTF-8. */
export function mixedCorpus(bytes, seed = 1) {
  const r = rng(seed);
  const docs = [];
  let total = 0;
  while (total < bytes) {
    let x = r();
    let kind = MIX[0][0];
    for (const [k, w] of MIX) {
      if ((x -= w) < 0) {
        kind = k;
        break;
      }
    }
    const target = 1024 + Math.floor(r() * 15 * 1024);
    let doc = '';
    while (Buffer.byteLength(doc) < target) doc += generators[kind](r);
    docs.push(doc);
    total += Buffer.byteLength(doc);
  }
  return docs;
}
