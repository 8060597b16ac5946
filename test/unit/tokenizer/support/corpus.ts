/**
 * A seeded, generated corpus aimed at the places where tokenizers disagree: the reference's
 * Unicode classes and case folding, white-space look-ahead, special tokens, lone surrogates and
 * NFKC. Every string is small enough for the reference (which is quadratic on long pieces).
 */

import { pick, type Rng, rng } from '../../../helpers/rng.js';

export { pick, type Rng, rng };
const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** Every special token of every encoding (an encoding without it treats it as plain text). */
export const SPECIAL_STRINGS = [
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|endofprompt|>',
  '<EOT>',
  '<META>',
  '<META_START>',
  '<META_END>',
  '<SOS>',
];

export const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2060', '\ufeff', '\u0085', '\u00a0', '\u3000'];

const WORDS = (
  'the of and to in is was for on that with as by at from his her they we you it this be are have had not but ' +
  'which one all were when there can an been has more if will would who so what about out up into than ' +
  'Tokenizer Langfuse OpenAI GPT JSON API HTTPS naïve café résumé Straße Ελληνικά русский язык ' +
  'CamelCase snake_case SCREAMING_CASE iPhone McDonald eBay O\'Neil'
).split(' ');
const CONTRACTION_LETTERS = ['s', 'S', '\u017f', 't', 'T', 're', 'RE', 'rE', 'Re', 've', 'VE', 'vE', 'Ve', 'm', 'M', 'll', 'LL', 'lL', 'Ll', 'd', 'D', 'K', '\u212a', 'x', ''];
const EMOJI = ['😀', '🚀', '👍🏽', '❤️', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇺🇸', '🇯🇵', '🧑🏻‍💻', '1️⃣', '#️⃣', '👁‍🗨', '🫠', '🦀', '\u{1f9d1}\u200d\u{1f91d}\u200d\u{1f9d1}'];
const CJK = ['中文', '测试', '你好，世界。', '東京都', 'ひらがな', 'カタカナ', '한국어', '조선글', '「引用」', '（括弧）', '１２３', '〇', '𠀋𡈽𩸽'];
const MARKS = ['\u0301', '\u0308', '\u0323', '\u0338', '\u20dd', '\u093f', '\u0bbe', '\u0e31', '\u05b7', '\u0670', '\ufe0f', '\u{e0100}', '\u1dc0'];
const NFKC_SENSITIVE = [
  'ﬁ', 'ﬀ', '①', '⑳', 'Ｈｅｌｌｏ', '㌀', 'ﾊﾟ', 'ｶﾞ', 'ﾞ', 'ℌ', '²', '½', 'Ǆ', 'ǅ', 'ㄱㅏ', 'ᄀ', 'ᅡ', 'ᆨ', '가\u11a8', 'Å', 'Ω', 'K', '™', '…',
  '\u1e9b\u0323', 'ſ', 'ﷺ', '㍿', '⁵', '₂', 'ｱ', '\u0041\u030a', '\u00c5', 'e\u0301', '\u0301', '\u0958', 'ǰ', 'ẛ',
];
const CODE = [
  'function f(x) {\n  return x * 2;\n}\n',
  'if (a && b) {\n\treturn "ok";\n} else {\r\n\treturn null;\r\n}\r\n',
  'def main():\n    print("hello, world")  # comment\n\n',
  'const url = `https://cloud.langfuse.com/api/public/traces?limit=50&page=2`;\n',
  '#include <stdio.h>\nint main(void) { printf("%d\\n", 42); }\n',
  'SELECT id, name FROM models WHERE $1 ~ match_pattern ORDER BY start_date DESC;\n',
  '{"key": [1, 2.5e-3, null, true], "nested": {"a": "b"}}',
  '<div class="x">&nbsp;</div>//a/b/c\n/// doc\n//\n',
  '    \n\n\t\t\n  // trailing   \n',
];

const LONE = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800', '\ud83d', '\ude00'];

function sentence(r: Rng): string {
  const words: string[] = [];
  for (let i = int(r, 2, 14); i > 0; i--) {
    const x = r();
    if (x < 0.1) words.push(pick(r, WORDS) + "'" + pick(r, CONTRACTION_LETTERS));
    else if (x < 0.15) words.push(String(int(r, 0, 10 ** int(r, 1, 8))));
    else if (x < 0.2) words.push(pick(r, WORDS).toUpperCase());
    else words.push(pick(r, WORDS));
  }
  return words.join(pick(r, [' ', ' ', ' ', '  ', ', ', '\n'])) + pick(r, ['.', '!', '?', '...', ':', ';', '', ' —']);
}

/** A string made of single characters chosen to hit the class boundaries of the patterns. */
const FUZZ_ALPHABET = [
  'a', 'z', 'A', 'Z', 's', 't', 'r', 'e', 'v', 'm', 'l', 'd', 'S', 'T', 'R', 'E', 'L', 'D', '\u017f', '\u212a', "'", '’',
  ' ', ' ', ' ', '\t', '\n', '\r', '\u000b', '\u000c', '\u0085', '\u00a0', '\u1680', '\u2000', '\u2028', '\u3000', '\ufeff', '\u200b',
  '0', '7', '٣', '²', '½', 'Ⅻ', '𝟘', '.', ',', '!', '/', '-', '_', '"', '<', '|', '>', '$', '€', '😀', '\u200d',
  'é', 'ß', 'ǅ', 'ʰ', 'ª', '中', '𠀋', 'ｶ', '\u0301', '\u0308', '\u093f', '\u20dd', 'Ω', '가',
];

export function fuzzString(r: Rng, length: number, alphabet: readonly string[] = FUZZ_ALPHABET): string {
  let s = '';
  for (let i = 0; i < length; i++) s += pick(r, alphabet);
  return s;
}

/** A random code point from anywhere (assigned or not, including characters newer than the reference's tables). */
export function randomCodePoint(r: Rng): string {
  const x = r();
  let cp: number;
  if (x < 0.5) cp = int(r, 0, 0x2fff);
  else if (x < 0.8) cp = int(r, 0x3000, 0xffff);
  else if (x < 0.95) cp = int(r, 0x10000, 0x3ffff);
  else cp = int(r, 0x40000, 0x10ffff);
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  return String.fromCodePoint(cp);
}

export interface Sample {
  readonly kind: string;
  readonly text: string;
}

export function corpus(seed: number, perKind = 60): Sample[] {
  const r = rng(seed);
  const out: Sample[] = [];
  const add = (kind: string, text: string): void => {
    out.push({ kind, text });
  };
  const generators: Record<string, () => string> = {
    prose: () => Array.from({ length: int(r, 1, 5) }, () => sentence(r)).join(' '),
    code: () => Array.from({ length: int(r, 1, 4) }, () => pick(r, CODE)).join(pick(r, ['', '\n', '\r\n', '\n\n  '])),
    cjk: () => Array.from({ length: int(r, 1, 8) }, () => pick(r, CJK) + pick(r, ['', ' ', '\n', 'ABC', '123', '。'])).join(''),
    emoji: () => Array.from({ length: int(r, 1, 10) }, () => pick(r, EMOJI) + pick(r, ['', ' ', 'a', '!', '\u200d', '\ufe0f'])).join(''),
    invisible: () => {
      const words = sentence(r).split(' ');
      return words.map((w) => (r() < 0.5 ? pick(r, INVISIBLE) : '') + w + (r() < 0.3 ? pick(r, INVISIBLE) : '')).join(r() < 0.5 ? ' ' : pick(r, INVISIBLE));
    },
    bom: () => pick(r, ['\ufeff', '\ufeff\ufeff', ' \ufeff', 'x\ufeff']) + sentence(r) + pick(r, ['', '\ufeff', ' \ufeff ', '\ufeffA']),
    runs: () => {
      const ch = pick(r, [' ', 'a', 'A', '1', '!', '\n', '\t', '中', '😀', '\u00a0', '\u3000', '\u0085', '-', '=', '\r\n', 'ab', ' \n', '\u0301', "'s"]);
      return pick(r, ['', 'x', ' ', '\n']) + ch.repeat(int(r, 1, 700)) + pick(r, ['', 'x', ' ', '\n', '!', ' y']);
    },
    spaceDigits: () => fuzzString(r, int(r, 1, 60), [' ', ' ', '\t', '\n', '\r', '\u00a0', '\u3000', '\u0085', '\u2003', '0', '1', '2', '9', '٣', '¹', 'x']),
    specials: () => {
      const sp = pick(r, SPECIAL_STRINGS);
      return pick(r, [
        sp,
        `${sentence(r)}${sp}${sentence(r)}`,
        `${sp}${sp}`,
        `  ${sp}  `,
        `${sp.slice(0, int(r, 1, sp.length - 1))}`,
        `${sp.slice(0, -1)}${sp}`,
        `<${sp}>`,
        `${sp}\n\n${pick(r, SPECIAL_STRINGS)}`,
        `a${sp}b${pick(r, SPECIAL_STRINGS)}c`,
        `${sp.toUpperCase()} ${sp.replace('|', '｜')}`,
        // NFKC turns these into special tokens for Claude.
        `${sp.replace('<', '＜').replace('>', '＞')}${sp.replace(/\|/g, '｜')}`,
      ]);
    },
    contractions: () =>
      Array.from({ length: int(r, 1, 6) }, () => pick(r, ['', 'a', 'A', 'ab', 'AB', 'aB', 'Ab', ' ', '1', '中', 'é', 'ǅ', '\u0301']) + "'" + pick(r, CONTRACTION_LETTERS) + pick(r, ['', 'x', 'X', ' ', "'", '.', 'e', 'l'])).join(pick(r, ['', ' '])),
    surrogates: () => Array.from({ length: int(r, 1, 6) }, () => pick(r, [...LONE, 'a', ' ', '😀', 'x y', '中'])).join(''),
    marks: () => Array.from({ length: int(r, 1, 8) }, () => pick(r, ['a', 'A', ' ', '1', '.', 'क', '가', '', '\n']) + pick(r, MARKS).repeat(int(r, 1, 3))).join(''),
    nfkc: () => Array.from({ length: int(r, 1, 8) }, () => pick(r, NFKC_SENSITIVE) + pick(r, ['', ' ', 'a', '\u0301', '1'])).join(''),
    fuzz: () => fuzzString(r, int(r, 1, 40)),
    unicode: () => Array.from({ length: int(r, 1, 24) }, () => randomCodePoint(r)).join(''),
    mixed: () => '',
  };
  for (const [kind, make] of Object.entries(generators)) {
    if (kind === 'mixed') continue;
    for (let i = 0; i < perKind; i++) add(kind, make());
  }
  const kinds = Object.keys(generators).filter((k) => k !== 'mixed');
  for (let i = 0; i < perKind; i++) {
    add('mixed', Array.from({ length: int(r, 2, 5) }, () => generators[pick(r, kinds)]!()).join(pick(r, ['', ' ', '\n'])));
  }
  return out;
}
