// src/ has no import cycles, counting type-only imports and import(): in a cycle, which module
// runs first depends on who loads it, and two layers that import each other are one layer.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

// `import ... from`, `import type ... from`, `export ... from` and `import '...'` start a line in
// this code base; `import('...')` (and `typeof import('...')`) may stand anywhere but in a comment.
const STATIC_IMPORT = /^[ \t]*(?:import|export)\s(?:[^'"`;]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const COMMENTED = /^\s*\*|\/\/|\/\*/;

/** The relative specifiers `text` imports, in any of the ways above. */
function relativeImports(text: string): string[] {
  const found = [...text.matchAll(STATIC_IMPORT)].map((m) => m[1]!);
  for (const m of text.matchAll(DYNAMIC_IMPORT)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (!COMMENTED.test(text.slice(lineStart, m.index))) found.push(m[1]!);
  }
  return found;
}

/** Each .ts file under src/ (as `src/...`) and the .ts files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => posix.join('src', name.split('\\').join('/')));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = relativeImports(readFileSync(join(ROOT, file), 'utf8')).map((spec) => posix.join(posix.dirname(file), spec).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets.filter((target) => known.has(target)))]);
  }
  return graph;
}

/** Cycles as paths that end where they start; at least one when the graph has any. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.push([...path.slice(at), next]);
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file);
  return cycles;
}

describe('the import graph of src/', () => {
  it('reads every kind of relative import, and none from comments', () => {
    const text = [
      "import type { A } from './a.js';",
      'import {',
      '  b,',
      "} from '../b.js';",
      "export * from './c.js';",
      "import './d.js';",
      "type E = typeof import('./e.js');",
      "const f = await import(\n  './f.js');",
      "// import('./commented.js')",
      " * import { g } from './in-a-block-comment.js';",
      "import { h } from 'node:fs';",
    ].join('\n');
    expect(relativeImports(text).sort()).toEqual(['../b.js', './a.js', './c.js', './d.js', './e.js', './f.js']);
  });

  it('finds a cycle where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(200);
    expect(findCycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('keeps src/types.ts a leaf, which any module may import', () => {
    expect(importGraph().get('src/types.ts')).toEqual([]);
  });
});
