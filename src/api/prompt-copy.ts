// What `prompts copy` reads from the two projects and writes to the destination; the plan between
// them is made by core/prompts/copy-plan.ts.
import { maxOf } from '../core/objects.js';
import type { CopyDestination, CopySource, CopyStep } from '../core/prompts/copy-plan.js';
import { PreconditionError } from '../errors.js';
import type { ApiClient } from './client.js';
import { mapLimit } from './map-limit.js';
import { addLabels, createPrompt, readLabelledVersions, SYNC_READ_CONCURRENCY } from './prompts.js';
import type { PromptMeta } from './schemas/prompts.js';

/** Told after each prompt read. */
export type OnRead = (done: number, total: number) => void;

/**
 * The source side of each prompt: every version (`allVersions`), or the latest and each labelled
 * one; with `labels`, only the versions holding one of them (`latest`: the latest version).
 */
export async function readCopySources(
  client: ApiClient,
  metas: readonly PromptMeta[],
  options: { allVersions: boolean; labels?: readonly string[] | undefined },
  onRead?: OnRead,
): Promise<CopySource[]> {
  let done = 0;
  return mapLimit(metas, SYNC_READ_CONCURRENCY, async (meta): Promise<CopySource> => {
    const versions = await readLabelledVersions(client, meta, { all: options.allVersions, labels: options.labels });
    onRead?.(++done, metas.length);
    return { name: meta.name, type: meta.type, tags: meta.tags, allVersions: meta.versions, versions, latestVersion: maxOf(meta.versions), onlyLabels: options.labels };
  });
}

/**
 * What the destination has of every prompt. A copied prompt that is there with the same type also
 * gets the versions the plan matches against: all of them with `allVersions`, else the latest and
 * those holding a label being copied. Any other prompt, copied or only referenced by the copied
 * ones, gets its summary alone.
 */
export async function readCopyDestinations(
  client: ApiClient,
  index: ReadonlyMap<string, PromptMeta>,
  copies: readonly CopySource[],
  allVersions: boolean,
  onRead?: OnRead,
): Promise<Map<string, CopyDestination>> {
  const destinations = new Map<string, CopyDestination>();
  const present = copies.filter((copy) => index.get(copy.name));
  let done = 0;
  await mapLimit(present, SYNC_READ_CONCURRENCY, async (copy) => {
    const meta = index.get(copy.name)!;
    if (meta.type !== copy.type) {
      destinations.set(copy.name, destinationOf(meta, []));
      return;
    }
    const wanted = [...new Set(copy.versions.flatMap((v) => v.labels))].filter((label) => meta.labels.includes(label));
    const known = await readLabelledVersions(client, meta, { all: allVersions, labels: allVersions ? undefined : ['latest', ...wanted] });
    destinations.set(copy.name, destinationOf(meta, known));
    onRead?.(++done, present.length);
  });
  for (const meta of index.values()) if (!destinations.has(meta.name)) destinations.set(meta.name, destinationOf(meta, []));
  return destinations;
}

/** One step of a copy plan; a create that does not get the version number planned stops the copy. */
export async function writeCopyStep(client: ApiClient, step: CopyStep): Promise<void> {
  if (step.kind === 'move-labels') {
    await addLabels(client, step.name, step.version, step.labels);
    return;
  }
  const created = await createPrompt(client, step.body);
  if (created.version !== step.expectVersion) {
    throw new PreconditionError(`'${step.name}' version ${step.sourceVersion} was created as version ${created.version}, not ${step.expectVersion}: the destination changed during the copy`, {
      hint: 'Check the destination; references by version number in later prompts may need the new number.',
    });
  }
}

function destinationOf(meta: PromptMeta, known: CopyDestination['known']): CopyDestination {
  return { name: meta.name, type: meta.type, versions: meta.versions, labels: meta.labels, tags: meta.tags, known };
}
