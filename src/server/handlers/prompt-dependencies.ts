// Prompt references against the stored state (SEMANTICS.md e, "Composability"): resolving them on
// create (400 when they do not resolve) and on GET (409), and the check that keeps a referenced
// version from being deleted (400).
import { randomUUID } from 'node:crypto';
import { PromptReferenceError } from '../../core/prompts/errors.js';
import {
  type PromptReference,
  type ReferenceSource,
  type ReferencedPrompt,
  type ResolvedPrompt,
  resolvePromptReferences,
} from '../../core/prompts/references.js';
import { type HttpError, conflict, invalidRequest } from '../http/errors.js';
import type { PromptDependencyRecord, PromptRecord } from '../records.js';
import type { Tx } from '../store/index.js';

function referenceOf(row: PromptDependencyRecord): PromptReference {
  return row.childVersion !== null
    ? { name: row.childName, type: 'version', version: row.childVersion }
    : { name: row.childName, type: 'label', label: row.childLabel ?? '' };
}

function sourceOf(tx: Tx): ReferenceSource<PromptRecord> {
  return {
    find: (reference) => (reference.type === 'version' ? tx.prompts.get(reference.name, reference.version) : tx.prompts.withLabel(reference.name, reference.label)),
    referencesOf: (prompt) => tx.prompts.dependenciesOf(prompt.id).map(referenceOf),
  };
}

function resolveOr(tx: Tx, prompt: ReferencedPrompt, references: PromptReference[] | undefined, fail: (message: string) => HttpError): ResolvedPrompt {
  try {
    return resolvePromptReferences(prompt, sourceOf(tx), references);
  } catch (error) {
    if (error instanceof PromptReferenceError) throw fail(error.message);
    throw error;
  }
}

/** Checks that a version about to be created resolves with the references in its content: else 400. */
export function checkNewReferences(tx: Tx, prompt: ReferencedPrompt, references: PromptReference[]): void {
  resolveOr(tx, prompt, references, invalidRequest);
}

/**
 * A stored version with its references resolved against the versions and labels as they are now.
 * One that no longer resolves (its labels moved, or a cycle formed since) answers 409.
 */
export function resolveStored(tx: Tx, prompt: PromptRecord): ResolvedPrompt {
  return resolveOr(tx, prompt, undefined, conflict);
}

/** The rows that store a new version's references. */
export function dependencyRows(projectId: string, parentId: string, references: PromptReference[], at: string): PromptDependencyRecord[] {
  return references.map((reference) => ({
    id: randomUUID(),
    projectId,
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
 * `remaining` version holds the label (as labels are before `latest` moves).
 */
export function assertNotReferenced(tx: Tx, name: string, doomed: readonly PromptRecord[], remaining: readonly PromptRecord[]): void {
  const versions = new Set(doomed.map((row) => row.version));
  const broken = tx.prompts
    .dependentsOn(name)
    .filter(({ dependency: dep }) =>
      dep.childVersion ? versions.has(dep.childVersion) : dep.childLabel ? !remaining.some((row) => row.labels.includes(dep.childLabel!)) : false,
    )
    .map(({ dependency: dep, parentName, parentVersion }) => `${parentName} v${parentVersion} depends on ${name} ${dep.childVersion ? `v${dep.childVersion}` : dep.childLabel}`);
  if (broken.length) {
    throw invalidRequest(`Other prompts are depending on prompt versions you are trying to delete:\n\n${broken.join('\n')}\n\nPlease delete the dependent prompts first.`);
  }
}
