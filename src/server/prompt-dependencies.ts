// Prompt references against the stored state (SEMANTICS.md e, "Composability"): resolving them on
// create (400 when they do not resolve) and on GET (409), and the check that keeps a referenced
// version from being deleted (400).
import { randomUUID } from 'node:crypto';
import { PromptReferenceError } from '../core/prompts/errors.js';
import {
  type PromptReference,
  type ReferenceSource,
  type ReferencedPrompt,
  type ResolvedPrompt,
  resolvePromptReferences,
} from '../core/prompts/references.js';
import { type HttpError, conflict, invalidRequest } from './errors.js';
import type { PromptDependencyRecord, PromptRecord, ServerState } from './state.js';

function referenceOf(row: PromptDependencyRecord): PromptReference {
  return row.childVersion !== null
    ? { name: row.childName, type: 'version', version: row.childVersion }
    : { name: row.childName, type: 'label', label: row.childLabel ?? '' };
}

function sourceOf(state: ServerState): ReferenceSource<PromptRecord> {
  return {
    find: (reference) =>
      state.prompts.find(
        (row) => row.name === reference.name && (reference.type === 'version' ? row.version === reference.version : row.labels.includes(reference.label)),
      ),
    referencesOf: (prompt) => state.promptDependencies.filter((row) => row.parentId === prompt.id).map(referenceOf),
  };
}

function resolveOr(state: ServerState, prompt: ReferencedPrompt, references: PromptReference[] | undefined, fail: (message: string) => HttpError): ResolvedPrompt {
  try {
    return resolvePromptReferences(prompt, sourceOf(state), references);
  } catch (error) {
    if (error instanceof PromptReferenceError) throw fail(error.message);
    throw error;
  }
}

/** Checks that a version about to be created resolves with the references in its content: else 400. */
export function checkNewReferences(state: ServerState, prompt: ReferencedPrompt, references: PromptReference[]): void {
  resolveOr(state, prompt, references, invalidRequest);
}

/**
 * A stored version with its references resolved against the versions and labels as they are now.
 * One that no longer resolves (its labels moved, or a cycle formed since) answers 409.
 */
export function resolveStored(state: ServerState, prompt: PromptRecord): ResolvedPrompt {
  return resolveOr(state, prompt, undefined, conflict);
}

/** The rows that store a new version's references. */
export function dependencyRows(state: ServerState, parentId: string, references: PromptReference[], at: string): PromptDependencyRecord[] {
  return references.map((reference) => ({
    id: randomUUID(),
    projectId: state.project.id,
    parentId,
    childName: reference.name,
    childVersion: reference.type === 'version' ? reference.version : null,
    childLabel: reference.type === 'label' ? reference.label : null,
    createdAt: at,
  }));
}

/**
 * Refuses (400) to delete `doomed` versions of prompt `name` when other prompts reference them
 * (`deletePrompt`): a reference by version breaks when that version goes, one by label when no
 * remaining version holds the label (as labels are before `latest` moves).
 */
export function assertNotReferenced(state: ServerState, name: string, doomed: readonly PromptRecord[]): void {
  const versions = new Set(doomed.map((row) => row.version));
  const remaining = state.prompts.filter((row) => row.name === name && !doomed.includes(row));
  const broken = state.promptDependencies
    .filter((dep) => dep.childName === name)
    .filter((dep) =>
      dep.childVersion ? versions.has(dep.childVersion) : dep.childLabel ? !remaining.some((row) => row.labels.includes(dep.childLabel!)) : false,
    )
    .map((dep) => {
      const parent = state.prompts.find((row) => row.id === dep.parentId);
      return `${parent ? `${parent.name} v${parent.version}` : dep.parentId} depends on ${name} ${dep.childVersion ? `v${dep.childVersion}` : dep.childLabel}`;
    });
  if (broken.length) {
    throw invalidRequest(`Other prompts are depending on prompt versions you are trying to delete:\n\n${broken.join('\n')}\n\nPlease delete the dependent prompts first.`);
  }
}

/** Deletes the references stored with versions that are being deleted. */
export function dropDependencies(state: ServerState, deleted: readonly PromptRecord[]): void {
  const ids = new Set(deleted.map((row) => row.id));
  state.promptDependencies = state.promptDependencies.filter((row) => !ids.has(row.parentId));
}
