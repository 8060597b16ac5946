// Runs a module of src/ (TypeScript) from a script: bundled in memory by esbuild, packages left to
// node_modules.
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');

export async function importSource(path) {
  const { outputFiles } = await build({ absWorkingDir: root, entryPoints: [path], bundle: true, format: 'esm', platform: 'node', packages: 'external', write: false, logLevel: 'warning' });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`);
}
