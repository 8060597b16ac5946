#!/usr/bin/env node
// Builds the package: TypeScript to dist/, then the generated data the runtime loads.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root });

// Steps that generate runtime data register themselves as scripts/build-*.mjs.
for (const file of readdirSync(join(root, 'scripts')).sort()) {
  if (/^build-.+\.mjs$/.test(file)) {
    execFileSync(process.execPath, [join(root, 'scripts', file)], { stdio: 'inherit', cwd: root });
  }
}
if (!existsSync(join(root, 'dist', 'cli.js'))) {
  console.error('build: dist/cli.js is missing after tsc');
  process.exit(1);
}
