// Packs the small chunks a lazily loaded chunk needs into that chunk's own file (see packChunks).
// Used by scripts/build.mjs on the CLI's CommonJS chunks; kept apart so that tests can pack
// chunks of their own.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Chunks up to this size are copied into the packs that need them; bigger ones stay files. */
export const PACK_THRESHOLD = 64 * 1024;

/** The key under which packs share their module factories in a process (bin/llmobs.cjs reads it too). */
export const REGISTRY_KEY = 'llmobs.chunks';

/**
 * The runtime at the top of every pack, called with the pack's own require, its module and its
 * factories (file name in the pack's directory -> function(exports, require, module, __filename,
 * __dirname) holding that chunk's code as built). It registers each factory, under the chunk's
 * absolute file name, in a registry that all packs of the process share, and returns the require
 * the pack's code uses: a chunk of the directory already loaded (from a pack or from its file) is
 * taken from Module._cache, one registered runs from its factory and goes into Module._cache
 * under the same key that loading its file would use, anything else goes to the pack's own
 * require. So a chunk copied into two packs still runs once per process, whichever loads first,
 * and loading its file later (plain require) finds it cached. A chunk that throws while it runs
 * is taken out of the cache again, as Node does for a file, and runs again if required again.
 */
const RUNTIME = `((outer,parent,factories)=>{const Module=parent.constructor,cache=Module._cache,dir=__dirname+outer("node:path").sep,registry=globalThis[Symbol.for(${JSON.stringify(REGISTRY_KEY)})]??=new Map;const load=id=>{if(id.startsWith("./")&&id.endsWith(".cjs")&&id.indexOf("/",2)===-1){const file=dir+id.slice(2),hit=cache[file];if(hit!==void 0)return hit.exports;const make=registry.get(file);if(make!==void 0)return make()}return outer(id)};load.resolve=outer.resolve;load.cache=cache;load.main=outer.main;for(const name of Object.keys(factories)){const file=dir+name,factory=factories[name];if(registry.has(file))continue;registry.set(file,()=>{const module=new Module(file,parent);module.filename=file;module.paths=parent.paths;cache[file]=module;let done=!1;try{factory.call(module.exports,module.exports,load,module,file,__dirname);done=!0}finally{if(!done){delete cache[file];const index=parent.children.indexOf(module);if(index!==-1)parent.children.splice(index,1)}}module.loaded=!0;return module.exports})}return load})`;

const FACTORY_HEAD = 'function(exports,require,module,__filename,__dirname){';

/**
 * Packs chunks. `chunks` maps each chunk's file name in `dir` to the file names (in `dir`) that it
 * requires statically (at load); `roots` are the chunks loaded lazily (import() of a command or a
 * verb). Each root's file becomes a pack: the chunks of its static closure of at most `threshold`
 * bytes (and without import(), which the compile cache of bin/llmobs.cjs leaves to Node) are
 * copied into it as factories, its own code runs after them with the pack's require (a bigger
 * chunk that requires small ones gets that require too, with no copies). The chunk
 * files all stay, as built (a pack holds copies): a bigger chunk loaded from its file, or any
 * plain require, finds them there. Source maps (file.map) are merged into the pack's map.
 * `companions` maps a root to chunks loaded lazily that every run of it loads too (a command's
 * definition: the output modules its command's run imports): they are copied in as well, so
 * that their import() finds them registered. Returns, for each pack written, the chunks copied
 * into it.
 */
export function packChunks(dir, chunks, roots, threshold = PACK_THRESHOLD, companions = {}) {
  const code = new Map(Object.keys(chunks).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
  const packable = (name) => statSync(join(dir, name)).size <= threshold && !code.get(name).includes('import(');
  const packed = {};
  const outputs = [];
  for (const root of roots) {
    const closure = [];
    const seen = new Set([root]);
    const visit = (name) => {
      for (const dep of chunks[name] ?? []) {
        if (seen.has(dep) || !code.has(dep)) continue;
        seen.add(dep);
        if (packable(dep)) closure.push(dep);
        visit(dep);
      }
    };
    // Chunks the root's code loads later, by import(), on every run (see `companions` above):
    // copied with what they need.
    for (const companion of companions[root] ?? []) {
      if (seen.has(companion) || !code.has(companion)) continue;
      seen.add(companion);
      if (packable(companion)) closure.push(companion);
      visit(companion);
    }
    visit(root);
    if (closure.length === 0) continue;
    packed[root] = closure;
    outputs.push(writePack(dir, root, closure, code));
  }
  // A bigger chunk that requires small ones takes them from the packs too (it gets the pack's
  // require, with nothing copied into it): with plain require (LLMOBS_COMPILE_CACHE=0) it would
  // otherwise read them from their files.
  for (const [name, deps] of Object.entries(chunks)) {
    if (packed[name] !== undefined || !code.has(name) || packable(name) || !deps.some((dep) => code.has(dep) && packable(dep))) continue;
    packed[name] = [];
    outputs.push(writePack(dir, name, [], code));
  }
  // Written after all are made: a chunk is copied as built, never as a pack.
  for (const [file, text, map] of outputs) {
    writeFileSync(join(dir, file), text);
    if (map !== undefined) writeFileSync(join(dir, `${file}.map`), map);
  }
  return packed;
}

const MAP_COMMENT = /\n?\/\/# sourceMappingURL=\S+\s*$/;

function writePack(dir, root, closure, code) {
  let text = `"use strict";var __llmobsRequire=${RUNTIME}(require,module,{\n`;
  const pieces = [];
  const add = (name) => {
    let body = code.get(name).replace(MAP_COMMENT, '');
    if (!body.endsWith('\n')) body += '\n';
    pieces.push({ name, line: lineCount(text) });
    text += body;
  };
  for (const name of closure) {
    text += `${JSON.stringify(name)}:${FACTORY_HEAD}\n`;
    add(name);
    text += '},\n';
  }
  text += `});(${FACTORY_HEAD}\n`;
  add(root);
  text += `}).call(exports,exports,__llmobsRequire,module,__filename,__dirname);\n//# sourceMappingURL=${root}.map\n`;
  const maps = pieces.map(({ name, line }) => ({ line, path: join(dir, `${name}.map`) }));
  const map = maps.every(({ path }) => existsSync(path)) ? mergeMaps(root, maps.map(({ line, path }) => ({ line, map: JSON.parse(readFileSync(path, 'utf8')) }))) : undefined;
  if (map === undefined) text = text.replace(MAP_COMMENT, '\n');
  return [root, text, map];
}

const lineCount = (text) => {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/** One source map from the maps of pieces that start at column 0 of the given lines. */
export function mergeMaps(file, pieces) {
  const sources = [];
  const sourcesContent = [];
  const names = [];
  const sourceIndex = new Map();
  const nameIndex = new Map();
  const lines = [];
  for (const { line, map } of pieces) {
    const sourceMap = (map.sources ?? []).map((source, i) => {
      const key = `${source}\0${map.sourcesContent?.[i] ?? ''}`;
      if (!sourceIndex.has(key)) {
        sourceIndex.set(key, sources.length);
        sources.push(source);
        sourcesContent.push(map.sourcesContent?.[i] ?? null);
      }
      return sourceIndex.get(key);
    });
    const nameMap = (map.names ?? []).map((name) => {
      if (!nameIndex.has(name)) {
        nameIndex.set(name, names.length);
        names.push(name);
      }
      return nameIndex.get(name);
    });
    decodeMappings(map.mappings).forEach((segments, n) => {
      lines[line + n] = segments.map(([column, source, sourceLine, sourceColumn, name]) =>
        source === undefined ? [column] : name === undefined ? [column, sourceMap[source], sourceLine, sourceColumn] : [column, sourceMap[source], sourceLine, sourceColumn, nameMap[name]],
      );
    });
  }
  return JSON.stringify({ version: 3, file, sources, sourcesContent, names, mappings: encodeMappings(lines) });
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** Mappings to absolute segments per generated line: [column, source, line, column, name]. */
export function decodeMappings(mappings) {
  const lines = [];
  const state = [0, 0, 0, 0, 0];
  for (const text of mappings.split(';')) {
    state[0] = 0;
    const segments = [];
    for (const part of text.split(',')) {
      if (part === '') continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const c of part) {
        const digit = DIGIT.get(c);
        if (digit === undefined) throw new Error(`source map: bad mapping character ${c}`);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      const segment = values.map((delta, i) => (state[i] += delta));
      segments.push(segment);
    }
    lines.push(segments);
  }
  return lines;
}

export function encodeMappings(lines) {
  const state = [0, 0, 0, 0, 0];
  const out = [];
  for (let n = 0; n < lines.length; n++) {
    state[0] = 0;
    out.push(
      (lines[n] ?? [])
        .map((segment) =>
          segment
            .map((value, i) => {
              const delta = value - state[i];
              state[i] = value;
              return vlq(delta);
            })
            .join(''),
        )
        .join(','),
    );
  }
  return out.join(';');
}

function vlq(value) {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let text = '';
  do {
    let digit = rest & 31;
    rest >>>= 5;
    if (rest > 0) digit |= 32;
    text += BASE64[digit];
  } while (rest > 0);
  return text;
}
