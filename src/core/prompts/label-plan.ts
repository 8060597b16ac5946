import { LabelPreconditionError, PromptUsageError, PromptVersionNotFoundError } from './errors.js';
import { assertNotLatest, validateLabel } from './label.js';
import { versionByLabel } from './label-map.js';
import type { VersionLabels } from './types.js';
import { maxOf } from '../objects.js';

/** One `PATCH /v2/prompts/{name}/versions/{version}` call with body `{newLabels}`. */
export interface LabelUpdate {
  version: number;
  newLabels: string[];
}

export interface LabelPlan {
  label: string;
  /** The version the label is on now, or null. Rolling back means pointing the label here again. */
  previousVersion: number | null;
  targetVersion: number;
  /** The label is already on the target: nothing to send. */
  noop: boolean;
  /** The request to send, or null for a no-op. */
  update: LabelUpdate | null;
  /**
   * The request that undoes `update`, or null when there is nothing to undo or the label was on
   * no version before: PATCH can only add or move a label, never remove it.
   */
  rollback: LabelUpdate | null;
  /** Every version's labels once `update` has been applied. */
  versionsAfter: VersionLabels[];
}

export interface PromotePlan extends LabelPlan {
  from: { label: string; version: number };
}

export interface LabelExpectation {
  /**
   * The version the label must be on right now for the plan to go ahead; `null` requires it to be
   * on no version. Lets a pipeline refuse to move a label someone else has moved meanwhile.
   */
  expectCurrent?: number | null;
}

/**
 * What the server does on PATCH: the target gets its labels plus `newLabels`, and every other
 * version loses them. It never removes a label from the target, and refuses `latest`.
 */
export function applyLabelUpdate(versions: readonly VersionLabels[], update: LabelUpdate): VersionLabels[] {
  update.newLabels.forEach(assertNotLatest);
  requireVersion(versions, update.version);
  const moved = new Set(update.newLabels);
  return versions.map(({ version, labels }) =>
    version === update.version
      ? { version, labels: [...new Set([...labels, ...update.newLabels])] }
      : { version, labels: labels.filter((label) => !moved.has(label)) },
  );
}

/** Plans `labels set`: point `label` at `targetVersion`. */
export function planSetLabel(
  versions: readonly VersionLabels[],
  label: string,
  targetVersion: number,
  options: LabelExpectation = {},
): LabelPlan {
  const holders = versionByLabel(versions);
  checkLabelToSet(label, holders);
  return plan(versions, holders, label, targetVersion, options.expectCurrent);
}

/** Plans `labels promote`: point `to` at the version that `from` is on now. */
export function planPromote(
  versions: readonly VersionLabels[],
  options: { from: string; to: string } & LabelExpectation,
): PromotePlan {
  const { from, to } = options;
  if (from.length === 0) throw new PromptUsageError('The label to promote from must not be empty.');
  if (from === to) {
    throw new PromptUsageError(`Cannot promote '${from}' to itself; give two different labels.`);
  }
  const holders = versionByLabel(versions);
  checkLabelToSet(to, holders);
  const fromVersion = holders.get(from);
  if (fromVersion === undefined) {
    throw new LabelPreconditionError(
      `The label '${from}' is on no version of this prompt, so there is nothing to promote.`,
    );
  }
  return { ...plan(versions, holders, to, fromVersion, options.expectCurrent), from: { label: from, version: fromVersion } };
}

function plan(
  versions: readonly VersionLabels[],
  holders: ReadonlyMap<string, number>,
  label: string,
  targetVersion: number,
  expectCurrent: number | null | undefined,
): LabelPlan {
  requireVersion(versions, targetVersion);
  const previousVersion = holders.get(label) ?? null;
  checkExpectation(label, previousVersion, expectCurrent);

  const noop = previousVersion === targetVersion;
  const update = noop ? null : { version: targetVersion, newLabels: [label] };
  return {
    label,
    previousVersion,
    targetVersion,
    noop,
    update,
    rollback: noop || previousVersion === null ? null : { version: previousVersion, newLabels: [label] },
    versionsAfter: update === null ? versions.map(copy) : applyLabelUpdate(versions, update),
  };
}

/**
 * A label that already exists was accepted by the server once (PATCH does not check the
 * pattern), so it may be moved even if create would refuse it; a new label must be valid.
 */
function checkLabelToSet(label: string, holders: ReadonlyMap<string, number>): void {
  if (holders.has(label)) assertNotLatest(label);
  else validateLabel(label);
}

function checkExpectation(label: string, current: number | null, expected: number | null | undefined): void {
  if (expected === undefined || expected === current) return;
  const where = (version: number | null) => (version === null ? 'on no version' : `on version ${version}`);
  throw new LabelPreconditionError(
    `Expected the label '${label}' ${where(expected)}, but it is ${where(current)}.`,
    'Someone may have moved it meanwhile; check the current labels before retrying.',
  );
}

function requireVersion(versions: readonly VersionLabels[], version: number): void {
  if (!versions.some((entry) => entry.version === version)) {
    const highest = maxOf(versions.map((entry) => entry.version));
    throw new PromptVersionNotFoundError(
      `Version ${version} does not exist${versions.length > 0 ? `; the highest version is ${highest}` : ''}.`,
    );
  }
}

function copy(entry: VersionLabels): VersionLabels {
  return { version: entry.version, labels: [...entry.labels] };
}
