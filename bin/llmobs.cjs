#!/usr/bin/env node
// CommonJS, as is dist/cli.cjs: on Node 20 an ES module entry would start the ES module loader,
// a fifth of a bare node start (see scripts/build.mjs).
'use strict';
// Node's Module class, as require('node:module') gives it, without loading that module's other parts.
const Module = module.constructor;

/**
 * V8's code cache for the files of dist/: compiling them is a third of the CPU time of an
 * `estimate` and a good part of `--version`. The first run of a command compiles as usual and
 * saves, at exit, what V8 compiled of each file (the functions that ran, too); later runs start
 * from that, and one a minute or more later saves it again with what it compiled itself. The
 * CommonJS loader's compile step is replaced for the files of dist/ only, on every Node version.
 * Node 22.1+ has a cache of its own (module.enableCompileCache), not used: it checks each entry
 * against a hash of its file's contents, and leaves the files of dist/ to the loader's resolution;
 * `estimate` and `models match` started 7 to 14 ms later with it on Node 22 and 24
 * (bench/README.md).
 *
 * Kept in $LLMOBS_CACHE_DIR (default $XDG_CACHE_HOME/llmobs, else ~/.cache/llmobs), in a folder
 * per build: a digest of the build's files (dist/build-id, written by the build), the Node version
 * and architecture. A new build starts a new folder and removes those of other builds not used for
 * a week (a folder in use is marked once a day), and the oldest past the eight most recent: two
 * installs used in turn (a global one and a project's) keep a folder each instead of evicting each
 * other. Within it an entry is keyed by the file's name and length (the entry's, by command too);
 * V8 itself refuses data made for another source length, V8 version or set of flags. Nothing is
 * cached with NODE_DISABLE_COMPILE_CACHE=1 or LLMOBS_COMPILE_CACHE=0, or when the folder cannot
 * be written; any failure falls back to compiling. The cache holds compiled code only, never data
 * of a run; it is used only when its folders and files belong to this user and no one else can
 * write them.
 */
// In parentheses, here and for the functions below that every run calls: V8 then compiles each
// with the script, instead of scanning it first and parsing it again at its first call. This file
// is compiled at every run (Node has no cached code for it); most of it runs every time.
const compileCache = (function compileCache() {
  const env = process.env;
  if (env.NODE_DISABLE_COMPILE_CACHE === '1' || env.LLMOBS_COMPILE_CACHE === '0') return undefined;
  // Stack traces through the source maps (node --enable-source-maps) need Node's own compile step:
  // it is the one that reads a file's map.
  if (process.sourceMapsEnabled) return undefined;
  const path = require('node:path');
  const fs = require('node:fs');
  const base = env.LLMOBS_CACHE_DIR || path.join(env.XDG_CACHE_HOME || path.join(env.HOME || require('node:os').homedir(), '.cache'), 'llmobs');
  // Compiled code runs as it is read: it is read only from folders of this user that no one else
  // can write, each file checked again once open (this user's, written by no one else), and
  // written only there (folders not there yet are made so at exit).
  const uid = process.getuid?.();
  const safe = (stat) => (uid === undefined || stat.uid === uid) && (process.platform === 'win32' || (stat.mode & 0o022) === 0);
  const folderStat = (folder) => fs.statSync(folder, { throwIfNoEntry: false });
  const trustedStat = (stat) => (stat === undefined ? undefined : stat.isDirectory() && safe(stat));
  const trusted = (folder) => trustedStat(folderStat(folder));
  const top = [base, path.join(base, 'compile-cache')];
  const vm = require('node:vm');
  const dist = path.join(__dirname, '..', 'dist') + path.sep;
  // The entry's compiled code is kept per command: what V8 compiles of it (commander's parsing,
  // the help) depends on the command, and an entry cached by the first command run would lack the
  // rest for good. The command is the first argument when it looks like a command name or an
  // option (`--help` and `--version` then keep theirs apart; a run that starts with an option
  // that takes a value shares that option's).
  const command = process.argv[2];
  // (Checked without regexes here: compiling one costs more than these loops, in every run.)
  const entryVariant = command !== undefined && variantName(command) ? `@${command}` : '';
  let dir;
  try {
    // A build is told apart by a digest of its files that the build writes (V8 checks only the
    // length of the source it is given cached code for: code cached for another build's file of
    // the same name and length would run).
    // As UTF-8 (hexadecimal digits), which Node reads in one step; any other encoding takes its
    // general path, a good part of a millisecond the first time.
    const id = fs.readFileSync(path.join(dist, 'build-id'), 'utf8').trim();
    if (id.length !== 16 || ![...id].every((c) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return undefined;
    dir = path.join(top[1], `${id}-${process.version}-${process.arch}`);
  } catch {
    return undefined;
  }
  const folders = [...top, dir];
  const stats = folders.map(folderStat);
  // Earlier builds let Node 22.1+ make the two top folders, with the mode the umask leaves (0775
  // where it is 002, as on many desktops): when they are the default ones, llmobs's own, and this
  // user's, they are made private again. A folder given by LLMOBS_CACHE_DIR is left as it is.
  if (!env.LLMOBS_CACHE_DIR && uid !== undefined) {
    for (let i = 0; i < 2; i++) {
      const stat = stats[i];
      if (stat === undefined || !stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) === 0) continue;
      try {
        fs.chmodSync(folders[i], 0o700);
        stats[i] = folderStat(folders[i]);
      } catch {
        // Left as it is: not trusted, not used.
      }
    }
  }
  const states = stats.map(trustedStat);
  if (states.includes(false)) return undefined;
  // Nothing is read unless every folder is there and trusted now (a folder made later by someone
  // else is never read from); each file is checked again once open.
  const readable = states.every((state) => state === true);
  // An entry holds the functions of the runs that wrote it: one written by a run that took another
  // path (an error, other options) lacks what later runs compile again each time. So an entry a
  // minute old or more is written again as a run that used it exits, with what that run compiled
  // too: the entries of a command soon hold all it runs, at the cost of a write a minute at most.
  const REFRESH_AFTER_MS = 60_000;
  const readCached = (function readCached(file) {
    if (!readable) return undefined;
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return undefined;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || !safe(stat)) return undefined;
      const data = Buffer.allocUnsafe(stat.size);
      if (fs.readSync(fd, data, 0, data.length, 0) !== data.length) return undefined;
      return { data, stale: Date.now() - stat.mtimeMs > REFRESH_AFTER_MS };
    } catch {
      return undefined;
    } finally {
      fs.closeSync(fd);
    }
  });
  // A folder in use is marked so once a day: other builds remove folders a week old.
  if (readable) {
    try {
      const now = Date.now();
      if (now - stats[2].mtimeMs > 24 * 3600 * 1000) fs.utimesSync(dir, now / 1000, now / 1000);
    } catch {
      // Only housekeeping.
    }
  }
  const packedChunks = Symbol.for('llmobs.chunks');
  // path.join(folder, id) for a folder already normalised and the relative names the files of
  // dist/ use (./a.cjs, ./chunks/a.cjs, ../cli.cjs), without normalising the whole path again.
  const nameIn = (folder, id) => {
    let rest = id;
    while (rest.startsWith('../')) {
      folder = folder.slice(0, folder.lastIndexOf(path.sep));
      rest = rest.slice(3);
    }
    if (rest.startsWith('./')) rest = rest.slice(2);
    if (rest.includes('./') || rest.includes('//')) return path.join(folder, rest);
    return folder + path.sep + (path.sep === '/' ? rest : rest.replaceAll('/', path.sep));
  };
  // The files of dist/ come wrapped as Module.wrap would wrap them, and run through
  // `.apply(this, arguments)` when Node's loader wraps them again (see LOADER_HEAD in
  // scripts/build.mjs): the function is compiled from the file's text as read, cut before that
  // call (V8 copies no part of it), instead of a joined copy of the whole file.
  const HEAD = '(function(exports,require,module,__filename,__dirname){\n';
  const TAIL = '\n}).apply(this,arguments);\n';
  const wrapped = (function wrapped(content) {
    const end = content.startsWith(HEAD) ? content.lastIndexOf(TAIL) : -1;
    return end === -1 ? Module.wrap(content) : content.slice(0, end + 3);
  });
  const compile = Module.prototype._compile;
  const fresh = [];
  /** Loads a file of dist/ (a real path) as require() would, without the resolver. */
  const loadFromDist = (function loadFromDist(file, parent) {
    const child = new Module(file, parent);
    Module._cache[file] = child;
    let loaded = false;
    try {
      child.load(file);
      loaded = true;
    } finally {
      if (!loaded) delete Module._cache[file];
    }
    return child.exports;
  });
  Module.prototype._compile = (function (content, filename) {
    // Files of dist/ only, and not the few that use import() (of a package that stays in
    // node_modules): a vm.Script gets the main loader's import() only through an experimental
    // option, which prints a warning.
    if (!filename.startsWith(dist) || content.includes('import(')) return compile.apply(this, arguments);
    let wrapper;
    try {
      const name = filename.slice(dist.length).replaceAll('/', '+').replaceAll('\\', '+');
      const key = path.join(dir, `${name}${name === 'cli.cjs' ? entryVariant : ''}-${content.length}.bin`);
      const cached = readCached(key);
      const script = new vm.Script(wrapped(content), { filename, cachedData: cached?.data });
      if (cached === undefined || cached.stale || script.cachedDataRejected) {
        if (fresh.length === 0) process.once('exit', saveFresh);
        fresh.push({ script, key, refresh: cached !== undefined && !script.cachedDataRejected });
      }
      wrapper = script.runInThisContext({ displayErrors: true });
    } catch {
      return compile.apply(this, arguments);
    }
    const module = this;
    const here = path.dirname(filename);
    // The files of dist/ require each other by relative names of real files (./chunk-X.cjs):
    // those are looked up in the module cache by their full name and loaded directly, without the
    // resolver's stat and realpath calls for each (a dozen to thirty files per command). Keys are
    // the same as the resolver's: this file's name is already a real path, and dist/ holds no
    // links. Anything else takes the usual way.
    const requireHere = (id) => {
      if ((id.startsWith('./') || id.startsWith('../')) && id.endsWith('.cjs')) {
        const file = nameIn(here, id);
        const cached = Module._cache[file];
        if (cached !== undefined) return cached.exports;
        // A chunk copied into a pack that is loaded already runs from there (scripts/pack-chunks.mjs).
        const packed = globalThis[packedChunks]?.get(file);
        if (packed !== undefined) return packed();
        if (file.startsWith(dist)) return loadFromDist(file, module);
      }
      return module.require(id);
    };
    requireHere.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    requireHere.main = require.main;
    requireHere.cache = Module._cache;
    return wrapper.call(module.exports, module.exports, requireHere, module, filename, path.dirname(filename));
  });
  function saveFresh() {
    try {
      const created = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!folders.every((folder) => trusted(folder) === true)) return;
      // Nothing is made for a folder that cannot be written (a read-only cache): making the data
      // is the costly part.
      fs.accessSync(dir, fs.constants.W_OK);
      if (created !== undefined) removeStaleBuilds(fs, path, path.dirname(dir), path.basename(dir));
      // A long run (`llmobs server`) does not refresh entries: V8 may have dropped the bytecode of
      // functions not run for a while, and the entry would lose them.
      const longRun = process.uptime() > 10;
      for (const { script, key, refresh } of fresh) {
        if (refresh && longRun) continue;
        // Written whole under a temporary name, then renamed: a process starting meanwhile reads
        // no entry or a whole one.
        const temporary = `${key}.${process.pid}.tmp`;
        fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temporary, key);
      }
    } catch {
      // A cache that cannot be written is no cache.
    }
  }
  return loadFromDist;
});

/**
 * Whether the first argument names the entry's cache variant: a command name (a lower-case letter,
 * then up to 31 lower-case letters, digits or dashes), `-x`, or `--name` (the same up to 31).
 */
function variantName(arg) {
  const word = (text) => {
    if (text.length < 1 || text.length > 32 || !(text[0] >= 'a' && text[0] <= 'z')) return false;
    for (const c of text) if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '-')) return false;
    return true;
  };
  if (arg.startsWith('--')) return word(arg.slice(2));
  if (arg.startsWith('-')) return arg.length === 2 && ((arg[1] >= 'a' && arg[1] <= 'z') || (arg[1] >= 'A' && arg[1] <= 'Z'));
  return word(arg);
}

/**
 * Removes the cache folders of other builds that are a week old or more, and all but the newest
 * eight. Only folders named as this launcher names them, as earlier ones did, and as Node names
 * its own cache's (earlier builds used it on Node 22.1+): any other is left alone.
 */
function removeStaleBuilds(fs, path, parent, current) {
  const WEEK_MS = 7 * 24 * 3600 * 1000;
  const KEEP = 8;
  const ours = /^(?:(?:[0-9a-f]{16}|(?:\d+\.\d+\.\d+[\w.+-]*-)?\d+-\d+)-v\d+\.\d+\.\d+-\w+|v\d+\.\d+\.\d+-\w+-[0-9a-f]{8}-\d+)$/;
  const others = [];
  for (const name of fs.readdirSync(parent)) {
    if (name === current || !ours.test(name)) continue;
    const stat = fs.statSync(path.join(parent, name), { throwIfNoEntry: false });
    if (stat !== undefined) others.push({ name, mtimeMs: stat.mtimeMs });
  }
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const now = Date.now();
  others.forEach(({ name, mtimeMs }, index) => {
    if (index >= KEEP - 1 || now - mtimeMs >= WEEK_MS) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  });
}

// The entry is loaded as its own files load each other (see compileCache), without the resolver.
const loadFromDist = compileCache();
const { run } = loadFromDist ? loadFromDist(require('node:path').join(__dirname, '..', 'dist', 'cli.cjs'), module) : require('../dist/cli.cjs');

// A reader that stops early (`llmobs prompts list | head`) closes the pipe: that is not an error,
// so stop quietly instead of crashing with an unhandled EPIPE. Node makes process.stdout on first
// use (piped output is mostly written without it, see src/io/stdio.ts): the handler is added then.
const stdout = Object.getOwnPropertyDescriptor(process, 'stdout');
if (stdout?.get && stdout.configurable) {
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: stdout.enumerable,
    get() {
      const stream = stdout.get.call(process);
      Object.defineProperty(process, 'stdout', { configurable: true, enumerable: stdout.enumerable, writable: false, value: stream });
      stream.on('error', quietOnEpipe);
      return stream;
    },
  });
} else {
  process.stdout.on('error', quietOnEpipe);
}

function quietOnEpipe(error) {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
}

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // When nothing is left to run (no timer, socket, child, file operation or write in progress),
  // leave now rather than after Node has taken the heap down piece by piece: a millisecond or
  // two of every command. Anything still under way is left to finish as usual.
  if (nothingPending()) process.exit(code);
});

function nothingPending() {
  if (process.getActiveResourcesInfo().length > 0 || process.listenerCount('beforeExit') > 0) return false;
  // Output still buffered in a stream Node made for stdout (an asynchronous pipe, on some systems).
  const stdout = Object.getOwnPropertyDescriptor(process, 'stdout');
  return stdout === undefined || !('value' in stdout) || !(stdout.value?.writableLength > 0);
}
