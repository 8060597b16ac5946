// What `prompts pull` does with the prompts it reads, decided before any file is written. Pure:
// the versions read and the directory's files come in, rows to report and files to write come out.
//
// For each prompt read:
//   - a name that cannot be a path inside the directory is set aside (before it is read: `..`
//     cannot even be asked for);
//   - a name that differs from another (read, or with a file) only in case or Unicode form is
//     set aside: on macOS and Windows both would be one file, and a later push would give one
//     prompt the other's content;
//   - several files for one prompt are kept as they are (status and push report them);
//   - a file that says what the server has is left alone, one that differs is kept unless forced;
//   - otherwise the file is written. The labels a file wants are the repository's choice, not the
//     server's: an overwrite keeps them.
import { maxOf } from '../objects.js';
import { type PromptFileData, promptFileStem, sameTags, sameVersionContent, serialisePromptFile } from './file-format.js';
import type { PromptSelector } from './selector.js';
import type { LocalPromptFile, ServerVersion } from './sync-plan.js';

/**
 * `skipped`: not asked for (no such version); `set aside`: the prompt exists but cannot be a file
 * here, and pull says so and exits 9.
 */
export type PullOutcome = 'written' | 'unchanged' | 'overwritten' | 'kept: differs' | 'skipped' | 'set aside';

export interface PullRow {
  name: string;
  version: number | null;
  /** As shown: under the directory as given, '' when no file is involved. */
  file: string;
  outcome: PullOutcome;
  reason?: string;
}

/** A prompt to read and the version of it. */
export interface PullTarget {
  name: string;
  selector: PromptSelector;
}

/**
 * The prompts to read when no names are given: each listed one that has a version. With a
 * version number, a prompt without that version is a skipped row; the latest version is asked
 * for by number, which gives what status compares with.
 */
export function pullTargets(prompts: ReadonlyArray<{ name: string; versions: readonly number[] }>, selector: PromptSelector): { targets: PullTarget[]; skipped: PullRow[] } {
  const targets: PullTarget[] = [];
  const skipped: PullRow[] = [];
  for (const prompt of prompts) {
    if (prompt.versions.length === 0) continue;
    if ('version' in selector && !prompt.versions.includes(selector.version)) {
      skipped.push({ name: prompt.name, version: null, file: '', outcome: 'skipped', reason: `no version ${selector.version}` });
      continue;
    }
    targets.push({ name: prompt.name, selector: 'label' in selector && selector.label === 'latest' ? { version: maxOf(prompt.versions) } : selector });
  }
  return { targets, skipped };
}

/**
 * The targets whose names can be files, and a set-aside row for each of the others (they are not
 * read: a name such as `..` cannot be asked for in a URL).
 */
export function setAsideUnwritable(targets: readonly PullTarget[]): { targets: PullTarget[]; setAside: PullRow[] } {
  const kept: PullTarget[] = [];
  const setAside: PullRow[] = [];
  for (const target of targets) {
    const stem = promptFileStem(target.name);
    if (stem.ok) kept.push(target);
    else setAside.push({ name: target.name, version: null, file: '', outcome: 'set aside', reason: stem.problem });
  }
  return { targets: kept, setAside };
}

/** A version read from the server, with the prompt's tags. */
export interface PulledPrompt {
  name: string;
  tags: readonly string[];
  version: ServerVersion;
}

export interface PullPlanInput {
  prompts: readonly PulledPrompt[];
  /** The directory's readable files. */
  files: readonly LocalPromptFile[];
  /** Every file path by prompt name (also of unreadable files), relative to the directory. */
  pathsByName: ReadonlyMap<string, readonly string[]>;
  /** The directory as given, for the paths shown. */
  dir: string;
  force: boolean;
}

export interface PullWrite {
  /** The prompt's name (its row's). */
  name: string;
  /** The file's path under the directory without its extension. */
  stem: string;
  extension: string;
  text: string;
  /** The prompt's file under another extension, removed once the new one is written. */
  replaces?: string | undefined;
}

export interface PullPlan {
  /** One per prompt read, in the order read. */
  rows: PullRow[];
  writes: PullWrite[];
}

export function planPull(input: PullPlanInput): PullPlan {
  const dir = input.dir.replace(/\/+$/, '');
  const files = new Map(input.files.map((file) => [file.name, file]));
  const namesByFile = new Map<string, Set<string>>();
  for (const name of [...input.prompts.map((prompt) => prompt.name), ...input.pathsByName.keys()]) {
    namesByFile.set(fileKey(name), (namesByFile.get(fileKey(name)) ?? new Set()).add(name));
  }
  const plan: PullPlan = { rows: [], writes: [] };
  for (const { name, tags, version } of input.prompts) {
    const row = { name, version: version.version };
    const stem = promptFileStem(name);
    if (!stem.ok) {
      plan.rows.push({ ...row, file: '', outcome: 'set aside', reason: stem.problem });
      continue;
    }
    const sameFile = [...(namesByFile.get(fileKey(name)) ?? [])].filter((other) => other !== name);
    if (sameFile.length > 0) {
      plan.rows.push({ ...row, file: '', outcome: 'set aside', reason: `differs from ${sameFile.map((n) => `'${n}'`).join(', ')} only in case or Unicode form: one file on macOS and Windows` });
      continue;
    }
    const mine = files.get(name);
    const data: PromptFileData = { content: version.content, config: version.config, labels: mine?.data.labels ?? [], ...(tags.length > 0 ? { tags: [...tags] } : {}) };
    const file = serialisePromptFile(data);
    const existing = input.pathsByName.get(name) ?? [];
    if (existing.length > 1) {
      plan.rows.push({ ...row, file: existing.join(', '), outcome: 'kept: differs', reason: 'several files give this prompt' });
      continue;
    }
    if (existing.length === 1 && mine && sameVersionContent(mine.data, version) && (mine.data.tags === undefined || sameTags(mine.data.tags, tags))) {
      plan.rows.push({ ...row, file: `${dir}/${existing[0]}`, outcome: 'unchanged' });
      continue;
    }
    if (existing.length === 1 && !input.force) {
      plan.rows.push({ ...row, file: `${dir}/${existing[0]}`, outcome: 'kept: differs' });
      continue;
    }
    plan.writes.push({ name, stem: stem.stem, extension: file.extension, text: file.text, replaces: existing[0] });
    plan.rows.push({ ...row, file: `${dir}/${stem.stem}.${file.extension}`, outcome: existing.length === 1 ? 'overwritten' : 'written' });
  }
  return plan;
}

/** What a case-insensitive, normalising file system (macOS, Windows) sees of a name. */
function fileKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
