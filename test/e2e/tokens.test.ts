// `llmobs tokens count` as a process: text, files (streamed), stdin, models, and refusals.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens } from '@anthropic-ai/tokenizer';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, llmobs } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const o200k = get_encoding('o200k_base');
const cl100k = get_encoding('cl100k_base');
afterAll(() => {
  o200k.free();
  cl100k.free();
});

describe('tokens count', () => {
  it('counts an argument, with special tokens counted as one', async () => {
    const text = 'Hello <|endoftext|> world 👋🏽';
    const result = await llmobs(['tokens', 'count', text]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${o200k.encode(text, 'all').length}\n`);
  });

  it('streams a large file, byte-order mark included, to the same count as the whole text', async () => {
    const dir = tempDir();
    const unit = '\uFEFFLorem ipsum dolor sit amet, 東京タワー 🧑‍🤝‍🧑 123456789 \n\tdef f(x): return x**2\n';
    const text = unit.repeat(40_000);
    writeFileSync(join(dir, 'big.txt'), text);
    const result = await llmobs(['tokens', 'count', '--file', join(dir, 'big.txt'), '--encoding', 'cl100k_base', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ tokens: cl100k.encode(text, 'all').length, tokenizer: 'openai', encoding: 'cl100k_base' });
  });

  it('counts pieces longer than a read of the file (1 MB) as the whole text counts them', async () => {
    const dir = tempDir();
    // Runs of a million characters and more, one of them of three-byte characters that the
    // reads cut in the middle; each a single piece, or pieces with no place to cut between them.
    const text = ['Hi ', ' '.repeat(1_200_000), 'x ', 'a'.repeat(1_100_000), ' ', '中'.repeat(500_000), ' ', '7'.repeat(1_300_000), ' end\n'].join('');
    writeFileSync(join(dir, 'runs.txt'), text);
    const result = await llmobs(['tokens', 'count', '--file', join(dir, 'runs.txt'), '--json']);
    expect(result.exitCode).toBe(0);
    // The reference merges such pieces in quadratic time; the built engine counts the text whole.
    const { loadTokenizer } = (await import(pathToFileURL(join(BIN, '../../dist/tokenizer.mjs')).href)) as typeof import('../../src/tokenizer/index.js');
    expect(JSON.parse(result.stdout).tokens).toBe(loadTokenizer('o200k_base').count(text));
  });

  it('reads stdin, and uses the tokenizer of a model definition', async () => {
    const text = 'Ünïcödé — “quotes” ﬁ ligature';
    const claude = await llmobs(['tokens', 'count', '--model', 'claude-sonnet-4-5', '--json'], { input: text });
    expect(JSON.parse(claude.stdout)).toMatchObject({ tokens: countTokens(text), tokenizer: 'claude', encoding: 'claude', model: 'claude-sonnet-4-5' });
    const gpt4 = await llmobs(['tokens', 'count', '--model', 'gpt-4', text, '--json']);
    expect(JSON.parse(gpt4.stdout)).toMatchObject({ tokens: cl100k.encode(text, 'all').length, encoding: 'cl100k_base' });
  });

  it('refuses what it cannot count', async () => {
    const noTokenizer = await llmobs(['tokens', 'count', '--model', 'o3', 'hi']);
    expect(noTokenizer.exitCode).toBe(2);
    expect(noTokenizer.stderr).toContain('no usable tokenizer');
    const noMatch = await llmobs(['tokens', 'count', '--model', 'my-model', 'hi']);
    expect(noMatch.exitCode).toBe(2);
    expect(noMatch.stderr).toContain('error: no model definition matches "my-model"\n');
    const typo = await llmobs(['tokens', 'count', '--model', 'gpt4o', 'hi']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toMatch(/^error: no model definition matches "gpt4o"; did you mean gpt-4o[,?]/);
    const both = await llmobs(['tokens', 'count', '--model', 'gpt-4o', '--encoding', 'claude', 'hi']);
    expect(both.exitCode).toBe(2);
    const missing = await llmobs(['tokens', 'count', '--file', '/nonexistent/file.txt']);
    expect(missing.exitCode).toBe(6);
    const badEncoding = await llmobs(['tokens', 'count', '--encoding', 'p99k', 'hi']);
    expect(badEncoding.exitCode).toBe(2);
  });
});
