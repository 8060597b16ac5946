// A directory of prompt files (prompts pull/status/push): reading every file with its problems,
// and writing one file so that a reader never sees half of it.
import { lstat, mkdir, readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FileError } from '../errors.js';
import { writeFileWhole } from './files.js';
import { isPromptFileExtension, parsePromptFile, promptNameOfPath } from '../core/prompts/file-format.js';
import { validatePromptName } from '../core/prompts/name.js';
import type { LocalPromptFile } from '../core/prompts/sync-plan.js';

/**
 * A prompt's file cannot be written where its name puts it (outside the directory, through a
 * link that leads out of it, over something that is not a folder): that prompt is set aside,
 * while the others are written.
 */
export class PromptPathError extends FileError {}

/** A prompt file larger than this is refused unread (the server takes request bodies of a few MB). */
export const MAX_PROMPT_FILE_BYTES = 8 * 1024 * 1024;
/** Directories never searched for prompts. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

export interface FileProblem {
  /** Relative to the current directory, for messages. */
  path: string;
  name?: string | undefined;
  problems: string[];
}

export interface PromptDirectory {
  root: string;
  files: LocalPromptFile[];
  problems: FileProblem[];
  /** Every prompt file path by name (also of unreadable files), relative to the root. */
  pathsByName: Map<string, string[]>;
}

/** Every prompt file under `root` (.md, .yaml, .yml, .json), read and checked. */
export async function readPromptDirectory(root: string, cwd: string): Promise<PromptDirectory> {
  const absolute = resolve(cwd, root);
  const found: Found[] = [];
  await walk(absolute, absolute, found, await realpath(absolute).catch(() => absolute));
  const shown = (file: string) => relative(cwd, file) || file;

  const pathsByName = new Map<string, string[]>();
  for (const file of found) pathsByName.set(file.name, [...(pathsByName.get(file.name) ?? []), file.relative]);

  const files: LocalPromptFile[] = [];
  const problems: FileProblem[] = [];
  for (const file of found.sort((a, b) => (a.relative < b.relative ? -1 : 1))) {
    const path = shown(file.absolute);
    const issues: string[] = [];
    const nameProblem = checkName(file.name);
    if (nameProblem) issues.push(nameProblem);
    const siblings = pathsByName.get(file.name) ?? [];
    if (siblings.length > 1) issues.push(`${siblings.length} files give the prompt '${file.name}' (${siblings.join(', ')}); keep one`);
    if (file.linksOutside !== undefined) {
      // Pushing it would send whatever it points at (a key file, an .env) to the server.
      issues.push(`it is a symbolic link to ${file.linksOutside}, outside the prompts directory; such a file is not read`);
      problems.push({ path, name: file.name, problems: issues });
      continue;
    }
    const info = await stat(file.absolute);
    if (info.size > MAX_PROMPT_FILE_BYTES) {
      issues.push(`the file is ${info.size} bytes; prompt files are limited to ${MAX_PROMPT_FILE_BYTES} bytes`);
      problems.push({ path, name: file.name, problems: issues });
      continue;
    }
    let text: string;
    try {
      text = await readFile(file.absolute, 'utf8');
    } catch (error) {
      throw new FileError(`cannot read ${path}: ${(error as Error).message}`);
    }
    const parsed = parsePromptFile(text, file.extension);
    if (!parsed.ok) issues.push(...parsed.problems);
    if (issues.length > 0 || !parsed.ok) problems.push({ path, name: file.name, problems: issues });
    else files.push({ name: file.name, path, data: parsed.data });
  }
  return { root: absolute, files, problems, pathsByName };
}

/** The directory as readPromptDirectory reads it, or an empty one where it does not exist yet (pull creates it). */
export async function readPromptDirectoryIfAny(root: string, cwd: string): Promise<PromptDirectory> {
  if (!(await directoryExists(root, cwd))) return { root: resolve(cwd, root), files: [], problems: [], pathsByName: new Map() };
  return readPromptDirectory(root, cwd);
}

/** Whether the directory exists (a missing one is an error for status and push, created by pull). */
export async function directoryExists(root: string, cwd: string): Promise<boolean> {
  try {
    return (await stat(resolve(cwd, root))).isDirectory();
  } catch {
    return false;
  }
}

function checkName(name: string): string | undefined {
  try {
    const stored = validatePromptName(name);
    if (stored !== name) return `the prompt name '${name}' has spaces at its start or end, which the server removes; rename the file`;
  } catch (error) {
    return (error as Error).message.replace(/\.$/, '');
  }
  return undefined;
}

interface Found {
  absolute: string;
  relative: string;
  name: string;
  extension: string;
  /** Where a symbolic link that leads out of the directory points. */
  linksOutside?: string | undefined;
}

/** Whether `path` (absolute, resolved) is `root` or inside it. */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function walk(root: string, directory: string, found: Found[], realRoot: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    throw new FileError(`cannot read the directory ${directory}: ${(error as Error).message}`);
  }
  for (const entry of entries) {
    const absolute = join(directory, entry.name);
    // Symbolic links to directories are not followed, so a link loop cannot hang the walk.
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(root, absolute, found, realRoot);
      continue;
    }
    let linksOutside: string | undefined;
    if (entry.isSymbolicLink()) {
      const target = await stat(absolute).catch(() => undefined);
      if (!target?.isFile()) continue;
      const real = await realpath(absolute);
      if (!isInside(realRoot, real)) linksOutside = real;
    } else if (!entry.isFile()) {
      continue;
    }
    const rel = relative(root, absolute).split(sep).join('/');
    const parsed = promptNameOfPath(rel);
    if (!parsed || !isPromptFileExtension(parsed.extension)) continue;
    found.push({ absolute, relative: rel, name: parsed.name, extension: parsed.extension, linksOutside });
  }
}

/**
 * Writes a prompt's file whole (never half of it, see writeFileWhole). `replaces` is removed
 * afterwards (the prompt's previous file under another extension).
 */
export async function writePromptFile(root: string, stem: string, extension: string, text: string, replaces?: string): Promise<string> {
  const target = join(root, ...stem.split('/')) + `.${extension}`;
  // A name's folders must stay folders of the directory: no ".." (Windows also splits at backslashes), and
  // no symbolic link on the way that leads elsewhere (a planted `team -> /home/me/.ssh`).
  if (!isInside(resolve(root), resolve(target)) || resolve(target) === resolve(root)) {
    throw new PromptPathError(`cannot write the prompt '${stem}': its file would be ${target}, outside ${root}`);
  }
  await makeFolders(root, relative(resolve(root), dirname(resolve(target))), target);
  await writeFileWhole(target, text);
  if (replaces !== undefined) {
    const old = join(root, ...replaces.split('/'));
    if (old !== target && (await lstat(old).catch(() => undefined))) await rm(old, { force: true });
  }
  return target;
}

/** Creates the prompts directory (and its parents) when missing; true when it was created. */
export async function createPromptDirectory(root: string, cwd: string): Promise<boolean> {
  if (await directoryExists(root, cwd)) return false;
  try {
    await mkdir(resolve(cwd, root), { recursive: true });
  } catch (error) {
    throw new FileError(`cannot create ${root}: ${(error as Error).message}`);
  }
  return true;
}

/** Creates the folders `rel` under `root` one at a time, refusing links that lead out of `root`. */
async function makeFolders(root: string, rel: string, target: string): Promise<void> {
  try {
    await mkdir(root, { recursive: true });
  } catch (error) {
    throw new FileError(`cannot create ${root}: ${(error as Error).message}`);
  }
  const realRoot = await realpath(root);
  let current = resolve(root);
  for (const segment of rel === '' ? [] : rel.split(sep)) {
    current = join(current, segment);
    const info = await lstat(current).catch(() => undefined);
    if (info === undefined) {
      await mkdir(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw new FileError(`cannot write ${target}: ${error.message}`);
      });
      continue;
    }
    if (info.isSymbolicLink()) {
      const real = await realpath(current).catch(() => undefined);
      if (real === undefined || !isInside(realRoot, real)) {
        throw new PromptPathError(`cannot write ${target}: ${current} is a symbolic link to ${real ?? 'a missing path'}, outside ${root}; prompt files are written only inside the prompts directory`, {
          hint: 'Replace the link with a folder, or pull into another --dir.',
        });
      }
      continue;
    }
    if (!info.isDirectory()) throw new PromptPathError(`cannot write ${target}: ${current} is not a folder`);
  }
}
