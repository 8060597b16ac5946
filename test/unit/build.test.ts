// The bundler configuration: what stays out of the bundle (native and WebAssembly packages).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { ALWAYS_EXTERNAL, hasNativeParts } from '../../scripts/build.mjs';

function fakePackage(files: Record<string, string>): string {
  const dir = tempDir('llmobs-pkg-');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

describe('packages kept out of the bundle', () => {
  it('names the native bindings and WebAssembly libraries that other work brings in', () => {
    expect(ALWAYS_EXTERNAL).toEqual(expect.arrayContaining(['libsql', '@libsql/*', 'better-sqlite3', 'jq-web', 'jq-wasm']));
  });

  it('finds native or WebAssembly parts in any other dependency', () => {
    expect(hasNativeParts(fakePackage({ 'package.json': '{"name":"plain"}', 'index.js': 'module.exports = 1' }))).toBe(false);
    expect(hasNativeParts(fakePackage({ 'package.json': '{"name":"addon"}', 'build/Release/addon.node': '' }))).toBe(true);
    expect(hasNativeParts(fakePackage({ 'package.json': '{"name":"wasm"}', 'dist/lib.wasm': '' }))).toBe(true);
    expect(hasNativeParts(fakePackage({ 'package.json': '{"name":"gyp","gypfile":true}' }))).toBe(true);
    expect(hasNativeParts(fakePackage({ 'package.json': '{"name":"prebuilt","optionalDependencies":{"prebuilt-linux-x64-gnu":"1.0.0"}}' }))).toBe(true);
    expect(hasNativeParts(join(tempDir(), 'missing'))).toBe(false);
  });
});

describe('modules of dist/ that scripts and benchmarks load', () => {
  it('are all built (library entries in scripts/build.mjs)', () => {
    const root = join(import.meta.dirname, '..', '..');
    const named = ['scripts', 'bench'].flatMap((dir) =>
      readdirSync(join(root, dir))
        .filter((file) => file.endsWith('.mjs'))
        .flatMap((file) => [...readFileSync(join(root, dir, file), 'utf8').matchAll(/dist\/([\w./-]+\.c?js)/g)].map((m) => `dist/${m[1]}`)),
    );
    expect(named).toContain('dist/cli.cjs');
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});
