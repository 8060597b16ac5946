// The benches and scripts load files of the build by name (dist/<entry>.mjs, bin/llmobs.js, the
// rank tables...). A renamed or removed entry would break them silently, since no test runs them:
// every such path they name must exist after the build, and a module of dist/ they name must be
// an entry of scripts/build.mjs (the other modules' names carry a content hash).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/**
 * The paths under dist/ and bin/ a file names: `join(root, 'dist', 'cli.mjs')` (string pieces
 * after `root`), and a quoted path that starts with dist/ or bin/, maybe after ../ or ./ (bench/
 * and scripts/ are one level down, so ../ is the root): '../dist/tokenizer.mjs', `dist/ranks/`.
 */
function namedPaths(text: string): string[] {
  const paths: string[] = [];
  for (const [, args] of text.matchAll(/\bjoin\(\s*root\s*,\s*((?:(['"])[^'"`$]*\2\s*,?\s*)+)\)/g)) {
    const pieces = [...args!.matchAll(/(['"])([^'"]*)\1/g)].map((piece) => piece[2]);
    const path = pieces.join('/');
    if (/^(dist|bin)(\/|$)/.test(path)) paths.push(path);
  }
  for (const [, , path] of text.matchAll(/(['"`])(?:\.\.?\/)?((?:dist|bin)\/[^'"`$\s*<>]*)\1/g)) paths.push(path!);
  return [...new Set(paths)];
}

function filesOf(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(root, dir))
    .filter(keep)
    .map((name) => `${dir}/${name}`);
}

const files = [...filesOf('bench', (name) => name.endsWith('.mjs') || name === 'README.md'), ...filesOf('scripts', (name) => name.endsWith('.mjs'))];
const named = files.flatMap((file) => namedPaths(readFileSync(join(root, file), 'utf8')).map((path) => ({ file, path })));

describe('namedPaths', () => {
  it('finds both ways of naming a file of the build', () => {
    expect(namedPaths(`await import(join(root, 'dist', 'cli.mjs'));\nawait import('../dist/tokenizer.mjs');\nspawn(node, [join(root, "bin", "llmobs.js")]);\n(\`dist/ranks/o200k_base.bin\`)`)).toEqual([
      'dist/cli.mjs',
      'bin/llmobs.js',
      'dist/tokenizer.mjs',
      'dist/ranks/o200k_base.bin',
    ]);
  });

  it('leaves out paths that are not the package root\'s', () => {
    const text = `spawnSync('/usr/bin/time', []); join(home, 'bin'); join(modules, 'js-tiktoken', 'dist', 'x.js'); join(root, 'node_modules', '.cache'); \`\${name}/dist/x\`; 'dist/\${name}.mjs'`;
    expect(namedPaths(text)).toEqual([]);
  });
});

describe('the files of the build that bench/ and scripts/ name', () => {
  it('finds the ones the benches load', () => {
    const paths = new Set(named.map(({ path }) => path));
    for (const path of ['dist/cli.mjs', 'dist/server.mjs', 'dist/store.mjs', 'dist/tokenizer.mjs', 'bin/llmobs.js']) expect(paths).toContain(path);
  });

  it('exist after the build', () => {
    expect(existsSync(join(root, 'dist')), 'dist/ is missing: run npm run build').toBe(true);
    const missing = named.filter(({ path }) => !existsSync(join(root, path))).map(({ file, path }) => `${file}: ${path}`);
    expect(missing).toEqual([]);
  });

  it('are entries of the build where they are modules of dist/', async () => {
    const { ENTRIES } = (await import(pathToFileURL(join(root, 'scripts', 'build.mjs')).href)) as { ENTRIES: Record<string, string> };
    const notEntries = named
      .filter(({ path }) => /^dist\/[^/]+\.mjs$/.test(path) && !(path.slice('dist/'.length, -'.mjs'.length) in ENTRIES))
      .map(({ file, path }) => `${file}: ${path}`);
    expect(notEntries).toEqual([]);
  });

  it('include what package.json names: the launcher and the exports', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string>; exports: Record<string, string> };
    const missing = [...Object.values(pkg.bin), ...Object.values(pkg.exports)].filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });
});
