#!/usr/bin/env node
// Writes completions/ from the command tree of the built CLI (`llmobs completion SHELL`). Run after
// changing commands or options (a test fails when a file is stale):
//   npm run build && npm run completions
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const files = { bash: 'llmobs.bash', zsh: '_llmobs', fish: 'llmobs.fish' };
mkdirSync(join(root, 'completions'), { recursive: true });
for (const [shell, name] of Object.entries(files)) {
  const script = execFileSync(process.execPath, [join(root, 'bin', 'llmobs.js'), 'completion', shell], { encoding: 'utf8' });
  writeFileSync(join(root, 'completions', name), script);
}
console.log(`wrote ${Object.values(files).map((name) => `completions/${name}`).join(', ')}`);
