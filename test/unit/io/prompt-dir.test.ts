import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('symbolic links that lead out of the directory', () => {
  it('a linked file outside is reported and never read (push would send it); one inside is read', async () => {
    const root = tree({ 'real.md': 'inside' });
    writeFileSync(join(root, 'secret.env'), 'AWS_SECRET_ACCESS_KEY=abc');
    symlinkSync(join(root, 'secret.env'), join(root, 'prompts', 'leak.md'));
    symlinkSync('../secret.env', join(root, 'prompts', 'relative.md'));
    symlinkSync(join(root, 'prompts', 'real.md'), join(root, 'prompts', 'alias.md'));
    const dir = await readPromptDirectory('prompts', root);
    expect(dir.files.map((f) => [f.name, f.data])).toEqual([
      ['alias', expect.objectContaining({ content: { type: 'text', prompt: 'inside' } })],
      ['real', expect.objectContaining({ content: { type: 'text', prompt: 'inside' } })],
    ]);
    const problems = Object.fromEntries(dir.problems.map((p) => [p.path, p.problems.join(' | ')]));
    expect(Object.keys(problems).sort()).toEqual(['prompts/leak.md', 'prompts/relative.md']);
    expect(problems['prompts/leak.md']).toContain('symbolic link to');
    expect(problems['prompts/leak.md']).toContain('outside the prompts directory');
    expect(JSON.stringify(dir)).not.toContain('AWS_SECRET_ACCESS_KEY');
  });

  it('a prompt is never written through a linked folder that leads elsewhere, nor above the directory', async () => {
    const root = tree({ 'keep.md': 'x' });
    mkdirSync(join(root, 'outside'));
    symlinkSync(join(root, 'outside'), join(root, 'prompts', 'team'));
    await expect(writePromptFile(join(root, 'prompts'), 'team/x', 'md', 'planted\n')).rejects.toThrow(/symbolic link to .*outside.*only inside the prompts directory/);
    await expect(writePromptFile(join(root, 'prompts'), 'team/deeper/x', 'md', 'planted\n')).rejects.toThrow(/symbolic link/);
    await expect(writePromptFile(join(root, 'prompts'), '../x', 'md', 'planted\n')).rejects.toThrow(/outside/);
    expect(readdirSync(join(root, 'outside'))).toEqual([]);
    expect(existsSync(join(root, 'x.md'))).toBe(false);
    // A linked folder that stays inside is fine.
    mkdirSync(join(root, 'prompts', 'shared'));
    symlinkSync(join(root, 'prompts', 'shared'), join(root, 'prompts', 'alias'));
    await writePromptFile(join(root, 'prompts'), 'alias/y', 'md', 'y\n');
    expect(readdirSync(join(root, 'prompts', 'shared'))).toEqual(['y.md']);
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
