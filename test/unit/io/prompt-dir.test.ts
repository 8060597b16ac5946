import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PROMPT_FILE_BYTES, readPromptDirectory, writePromptFile } from '../../../src/io/prompt-dir.js';
import { tempDir } from '../../helpers/cli.js';

function tree(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'prompts', path, '..'), { recursive: true });
    writeFileSync(join(root, 'prompts', path), text);
  }
  return root;
}

describe('reading a prompt directory', () => {
  it('names prompts by path, ignores other files and skipped folders, and does not follow linked folders', async () => {
    const root = tree({ 'a/b/c.md': 'x', 'chat.yaml': 'messages: []', 'README': 'not a prompt', 'notes.txt': 'no', '.git/x.md': 'skipped', 'node_modules/y.md': 'skipped' });
    symlinkSync(join(root, 'prompts'), join(root, 'prompts', 'loop'));
    const dir = await readPromptDirectory('prompts', root);
    expect(dir.problems).toEqual([]);
    expect(dir.files.map((f) => [f.name, f.path])).toEqual([
      ['a/b/c', 'prompts/a/b/c.md'],
      ['chat', 'prompts/chat.yaml'],
    ]);
  });

  it('reports two files for one prompt, names the server would change or refuse, and oversized files', async () => {
    const root = tree({ 'dup.md': 'a', 'dup.yaml': 'text: a', ' spaced.md': 'x', 'new.md': 'reserved', 'big.md': 'x'.repeat(MAX_PROMPT_FILE_BYTES + 1) });
    const dir = await readPromptDirectory('prompts', root);
    const problems = Object.fromEntries(dir.problems.map((p) => [p.path, p.problems.join(' | ')]));
    expect(problems['prompts/dup.md']).toContain("2 files give the prompt 'dup'");
    expect(problems['prompts/dup.yaml']).toContain("2 files give the prompt 'dup'");
    expect(problems['prompts/ spaced.md']).toContain('spaces at its start or end');
    expect(problems['prompts/new.md']).toContain('reserved');
    expect(problems['prompts/big.md']).toContain('limited to');
    expect(dir.files).toEqual([]);
  });
});

describe('writing a prompt file', () => {
  it('creates folders, replaces the file whole, removes the previous file of another extension and leaves no temporary file', async () => {
    const root = tree({ 'team/x.md': 'old' });
    await writePromptFile(join(root, 'prompts'), 'team/x', 'yaml', 'text: new\n', 'team/x.md');
    await writePromptFile(join(root, 'prompts'), 'deep/er/y', 'md', 'y\n');
    expect(readdirSync(join(root, 'prompts', 'team'))).toEqual(['x.yaml']);
    expect(readFileSync(join(root, 'prompts', 'team', 'x.yaml'), 'utf8')).toBe('text: new\n');
    expect(readdirSync(join(root, 'prompts', 'deep', 'er'))).toEqual(['y.md']);
  });
});
