/**
 * The committed class tables are what the reference engine matches today: regenerated from the
 * installed WASM tiktoken and compared byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CASE_FOLDS, RUN_LENGTHS } from '../../../src/tokenizer/unicode-classes.js';
import { classTable, LET, WS } from '../../../src/tokenizer/scanner.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('unicode-classes.ts', () => {
  it('matches the classes and case folds of the installed reference engine', () => {
    // Exits non-zero with a message when the file is stale.
    expect(() => execFileSync(process.execPath, ['scripts/gen-unicode-classes.mjs', '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });

  const classes = classTable();
  const has = (bit: number, cp: number): boolean => (classes[cp]! & bit) !== 0;

  it('covers every code point', () => {
    expect(RUN_LENGTHS.reduce((a, b) => a + b, 0)).toBe(0x110000);
  });

  it('differs from JavaScript where the reference does', () => {
    // Rust's \s is White_Space: NEL yes, BOM no. JavaScript's \s is the other way round.
    expect(has(WS, 0x85)).toBe(true);
    expect(has(WS, 0xfeff)).toBe(false);
    expect(/\s/.test('\u0085')).toBe(false);
    expect(/\s/.test('\ufeff')).toBe(true);
    // The reference's Unicode is older than Node's: some letters Node knows are not letters there.
    let newer = 0;
    let every = '';
    for (let cp = 0; cp < 0x110000; cp++) if (cp < 0xd800 || cp > 0xdfff) every += String.fromCodePoint(cp);
    for (const [ch] of every.matchAll(/\p{L}/gu)) if (!has(LET, ch.codePointAt(0)!)) newer++;
    expect(newer).toBeGreaterThan(0);
    // (?i:'s) also matches the long s.
    expect(CASE_FOLDS.s).toContain('\u017f');
  });
});
