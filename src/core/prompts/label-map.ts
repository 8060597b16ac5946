import { LabelPreconditionError } from './errors.js';
import { compareStrings } from '../order.js';
import type { VersionLabels } from './types.js';

/** Labels per version, versions ascending; repeated entries for one version are merged. */
export function labelsByVersion(versions: readonly VersionLabels[]): Map<number, string[]> {
  const merged = new Map<number, Set<string>>();
  for (const { version, labels } of versions) {
    const set = merged.get(version) ?? new Set<string>();
    for (const label of labels) set.add(label);
    merged.set(version, set);
  }
  return new Map([...merged].sort(([a], [b]) => a - b).map(([version, set]) => [version, [...set]]));
}

/**
 * The version each label is on, labels sorted. The server keeps a label on one version at a time,
 * so seeing it on two means the versions were read while another change was landing: planning on
 * that would be unsafe, and reading again fixes it.
 */
export function versionByLabel(versions: readonly VersionLabels[]): Map<string, number> {
  const holders = new Map<string, number>();
  for (const [version, labels] of labelsByVersion(versions)) {
    for (const label of labels) {
      const other = holders.get(label);
      if (other !== undefined) {
        throw new LabelPreconditionError(
          `The label '${label}' appears on versions ${other} and ${version}; the prompt changed while it was being read.`,
          'Run the command again.',
        );
      }
      holders.set(label, version);
    }
  }
  return new Map([...holders].sort(([a], [b]) => compareStrings(a, b)));
}
