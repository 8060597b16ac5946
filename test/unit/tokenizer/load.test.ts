import { mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RANKS_DIR, loadTokenizer } from '../../../src/tokenizer/load.js';
import { RANKS_DIR } from './support/reference.js';

describe('loadTokenizer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'llmobs-ranks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads each encoding once per process and directory', () => {
    const a = loadTokenizer('cl100k_base', RANKS_DIR);
    expect(loadTokenizer('cl100k_base', RANKS_DIR)).toBe(a);
    expect(a.name).toBe('cl100k_base');
    expect(a.count('hello world')).toBe(2);
  });

  it('says how to fix missing tables', () => {
    expect(() => loadTokenizer('gpt2', dir)).toThrow(/npm run build/);
  });

  it('refuses a table that holds another encoding', () => {
    copyFileSync(join(RANKS_DIR, 'r50k_base.bin'), join(dir, 'gpt2.bin'));
    expect(() => loadTokenizer('gpt2', dir)).toThrow(/r50k_base, not gpt2/);
  });

  it('looks beside the compiled module by default', () => {
    // From sources that is src/ranks/, from the build dist/ranks/.
    expect(DEFAULT_RANKS_DIR.replace(/\\/g, '/')).toMatch(/\/src\/ranks\/$/);
  });
});
