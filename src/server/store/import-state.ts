// A data directory of a server before the database: its `state.json` is read before anything is
// created (a corrupt one stops the start and stays untouched), imported in the transaction that
// creates the project, then renamed to `state.json.backup`.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { FileError } from '../../errors.js';
import { STATE_FILE, STATE_SCHEMA_VERSION, type ServerState } from '../state.js';
import type { Tx } from './tx.js';

export const STATE_BACKUP_FILE = `${STATE_FILE}.backup`;

/** The state file of a data directory, checked; undefined when there is none. */
export function readLegacyState(dir: string): ServerState | undefined {
  const path = join(dir, STATE_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let state: ServerState;
  try {
    state = JSON.parse(text) as ServerState;
  } catch (error) {
    throw new FileError(`${path} is not valid JSON (${(error as Error).message}); it was left untouched`, {
      hint: 'Move the data directory away to start fresh, or restore it from a backup.',
    });
  }
  const valid =
    state?.schemaVersion === STATE_SCHEMA_VERSION &&
    typeof state.project?.id === 'string' &&
    Array.isArray(state.apiKeys) &&
    state.apiKeys.length > 0 &&
    [state.prompts, state.promptDependencies, state.models].every((list) => list === undefined || Array.isArray(list));
  if (!valid) {
    throw new FileError(`${path} is not a llmobs server state file (schema ${String(state?.schemaVersion)}); it was left untouched`, {
      hint: 'Point --data-dir at an empty directory or at one a llmobs server created.',
    });
  }
  return state;
}

/** Copies a state file's records into an empty database. */
export function importState(tx: Tx, state: ServerState): void {
  tx.project.create(state.project, state.apiKeys);
  const dependencies = state.promptDependencies ?? [];
  // Versions go in oldest first; a label appears on one version only in a consistent file.
  const prompts = [...(state.prompts ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version - b.version));
  for (const prompt of prompts) {
    tx.prompts.insert(
      { ...prompt, labels: [...new Set(prompt.labels)], tags: [...prompt.tags] },
      dependencies.filter((row) => row.parentId === prompt.id),
    );
  }
  for (const model of state.models ?? []) tx.models.put(model);
}

/** Keeps the imported file as a backup, out of the way of later starts. */
export function keepStateBackup(dir: string): void {
  const path = join(dir, STATE_FILE);
  if (existsSync(path)) renameSync(path, join(dir, STATE_BACKUP_FILE));
}
