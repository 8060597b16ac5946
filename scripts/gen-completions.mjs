#!/usr/bin/env node
// Writes completions/ from the built command tree. Run after changing commands or options:
//   npm run build && npm run completions
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildProgram } = await import(join(root, 'dist/cli.js'));
const { Context, defaultDeps } = await import(join(root, 'dist/context.js'));
const { generate, completionFileName, SHELLS } = await import(join(root, 'dist/completion/generate.js'));

mkdirSync(join(root, 'completions'), { recursive: true });
for (const shell of SHELLS) {
  const program = buildProgram(new Context(defaultDeps()));
  writeFileSync(join(root, 'completions', completionFileName(shell)), generate(shell, program));
}
console.log(`wrote ${SHELLS.map(completionFileName).map((name) => `completions/${name}`).join(', ')}`);
