// The bundler configuration: what stays out of the bundle (native and WebAssembly packages).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { ALWAYS_EXTERNAL, buildId, hasNativeParts } from '../../scripts/build.mjs';

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

describe('the build id the launcher names its compile-cache folder by', () => {
  it('changes with the content of any CommonJS file, even one of the same name and length', () => {
    const dist = fakePackage({ 'cli.cjs': 'require("./chunks/a-AAAA.cjs")', 'chunks/a-AAAA.cjs': 'module.exports = 1', 'lib/x.js': 'export {}' });
    const id = buildId(dist);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(buildId(dist)).toBe(id);
    writeFileSync(join(dist, 'cli.cjs'), 'require("./chunks/a-BBBB.cjs")');
    const renamed = buildId(dist);
    expect(renamed).not.toBe(id);
    writeFileSync(join(dist, 'chunks', 'a-AAAA.cjs'), 'module.exports = 2');
    expect(buildId(dist)).not.toBe(renamed);
    // Files the launcher does not compile do not count.
    const before = buildId(dist);
    writeFileSync(join(dist, 'lib', 'x.js'), 'export const y = 1');
    expect(buildId(dist)).toBe(before);
  });
});
