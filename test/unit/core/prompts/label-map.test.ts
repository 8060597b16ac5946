import { describe, expect, it } from 'vitest';
import { LabelPreconditionError, labelsByVersion, versionByLabel, type VersionLabels } from '../../../../src/core/prompts/index.js';

// v1 in production, v2 on staging, v3 the newest.
const versions: VersionLabels[] = [
  { version: 3, labels: ['latest'] },
  { version: 1, labels: ['production'] },
  { version: 2, labels: ['staging', 'Legacy Label'] },
];

describe('label maps', () => {
  it('groups labels by version, versions ascending', () => {
    expect([...labelsByVersion(versions)]).toEqual([
      [1, ['production']],
      [2, ['staging', 'Legacy Label']],
      [3, ['latest']],
    ]);
  });

  it('maps each label to its version, labels sorted', () => {
    expect([...versionByLabel(versions)]).toEqual([
      ['Legacy Label', 2],
      ['latest', 3],
      ['production', 1],
      ['staging', 2],
    ]);
  });

  it('refuses a label seen on two versions: the read raced a change', () => {
    const raced = [...versions, { version: 4, labels: ['production'] }];
    expect(() => versionByLabel(raced)).toThrow(LabelPreconditionError);
    expect(() => versionByLabel(raced)).toThrow(/'production' appears on versions 1 and 4/);
  });
});
