import { describe, expect, it } from 'vitest';
import { LabelPreconditionError, PromptUsageError, PromptVersionNotFoundError, applyLabelUpdate, planPromote, planSetLabel, versionByLabel, type VersionLabels } from '../../../../src/core/prompts/index.js';

// v1 in production, v2 on staging, v3 the newest.
const versions: VersionLabels[] = [
  { version: 3, labels: ['latest'] },
  { version: 1, labels: ['production'] },
  { version: 2, labels: ['staging', 'Legacy Label'] },
];

describe('applyLabelUpdate (the server PATCH)', () => {
  it('adds the labels to the target and removes them from every other version', () => {
    expect(applyLabelUpdate(versions, { version: 3, newLabels: ['production', 'staging'] })).toEqual([
      { version: 3, labels: ['latest', 'production', 'staging'] },
      { version: 1, labels: [] },
      { version: 2, labels: ['Legacy Label'] },
    ]);
  });

  it('never removes a label from the target and does not change its input', () => {
    const before = JSON.stringify(versions);
    expect(applyLabelUpdate(versions, { version: 1, newLabels: ['production'] })).toEqual(versions);
    expect(JSON.stringify(versions)).toBe(before);
  });

  it('refuses latest and unknown versions', () => {
    expect(() => applyLabelUpdate(versions, { version: 1, newLabels: ['latest'] })).toThrow(PromptUsageError);
    expect(() => applyLabelUpdate(versions, { version: 9, newLabels: ['x'] })).toThrow(PromptVersionNotFoundError);
  });
});

describe('planSetLabel', () => {
  it('moves a label and records where it was for a rollback', () => {
    const plan = planSetLabel(versions, 'production', 3);
    expect(plan).toEqual({
      label: 'production',
      previousVersion: 1,
      targetVersion: 3,
      noop: false,
      update: { version: 3, newLabels: ['production'] },
      rollback: { version: 1, newLabels: ['production'] },
      versionsAfter: [
        { version: 3, labels: ['latest', 'production'] },
        { version: 1, labels: [] },
        { version: 2, labels: ['staging', 'Legacy Label'] },
      ],
    });
  });

  it('applying the rollback restores the labels as they were', () => {
    const plan = planSetLabel(versions, 'production', 3);
    expect(plan.rollback).not.toBeNull();
    if (plan.rollback === null) return;
    expect(applyLabelUpdate(plan.versionsAfter, plan.rollback)).toEqual(versions);
  });

  it('a new label has no rollback: PATCH cannot remove a label', () => {
    const plan = planSetLabel(versions, 'canary', 2);
    expect(plan.previousVersion).toBeNull();
    expect(plan.update).toEqual({ version: 2, newLabels: ['canary'] });
    expect(plan.rollback).toBeNull();
  });

  it('is a no-op when the label is already there', () => {
    const plan = planSetLabel(versions, 'production', 1);
    expect(plan.noop).toBe(true);
    expect(plan.update).toBeNull();
    expect(plan.rollback).toBeNull();
    expect(plan.versionsAfter).toEqual(versions);
  });

  it('refuses a version that does not exist', () => {
    expect(() => planSetLabel(versions, 'production', 7)).toThrow(PromptVersionNotFoundError);
    expect(() => planSetLabel(versions, 'production', 7)).toThrow('Version 7 does not exist; the highest version is 3.');
  });

  it('refuses latest, whether it exists or not', () => {
    expect(() => planSetLabel(versions, 'latest', 1)).toThrow(PromptUsageError);
    expect(() => planSetLabel([{ version: 1, labels: [] }], 'latest', 1)).toThrow(/cannot be set by hand/);
  });

  it('refuses a new label the server would not create, but moves an existing odd one', () => {
    expect(() => planSetLabel(versions, 'Bad Label', 1)).toThrow(PromptUsageError);
    expect(planSetLabel(versions, 'Legacy Label', 1).update).toEqual({ version: 1, newLabels: ['Legacy Label'] });
  });

  it('checks the expected current version, even when the move would be a no-op', () => {
    expect(planSetLabel(versions, 'production', 3, { expectCurrent: 1 }).update).toEqual({
      version: 3,
      newLabels: ['production'],
    });
    expect(() => planSetLabel(versions, 'production', 3, { expectCurrent: 2 })).toThrow(LabelPreconditionError);
    expect(() => planSetLabel(versions, 'production', 3, { expectCurrent: 2 })).toThrow(
      "Expected the label 'production' on version 2, but it is on version 1.",
    );
    expect(() => planSetLabel(versions, 'production', 1, { expectCurrent: 3 })).toThrow(LabelPreconditionError);
  });

  it('can require the label to be on no version yet', () => {
    expect(planSetLabel(versions, 'canary', 2, { expectCurrent: null }).noop).toBe(false);
    expect(() => planSetLabel(versions, 'production', 2, { expectCurrent: null })).toThrow(
      "Expected the label 'production' on no version, but it is on version 1.",
    );
    expect(() => planSetLabel(versions, 'canary', 2, { expectCurrent: 1 })).toThrow(
      "Expected the label 'canary' on version 1, but it is on no version.",
    );
  });
});

describe('planPromote', () => {
  it('points `to` at the version `from` is on', () => {
    const plan = planPromote(versions, { from: 'staging', to: 'production' });
    expect(plan.from).toEqual({ label: 'staging', version: 2 });
    expect(plan.previousVersion).toBe(1);
    expect(plan.targetVersion).toBe(2);
    expect(plan.update).toEqual({ version: 2, newLabels: ['production'] });
    expect(plan.rollback).toEqual({ version: 1, newLabels: ['production'] });
    expect(versionByLabel(plan.versionsAfter).get('production')).toBe(2);
    expect(versionByLabel(plan.versionsAfter).get('staging')).toBe(2);
  });

  it('can promote from latest', () => {
    expect(planPromote(versions, { from: 'latest', to: 'staging' }).update).toEqual({ version: 3, newLabels: ['staging'] });
  });

  it('goes ahead when the expected current version holds, and fails when it does not', () => {
    expect(planPromote(versions, { from: 'staging', to: 'production', expectCurrent: 1 }).targetVersion).toBe(2);
    expect(() => planPromote(versions, { from: 'staging', to: 'production', expectCurrent: 3 })).toThrow(
      LabelPreconditionError,
    );
  });

  it('is a no-op when both labels are already on the same version', () => {
    const promoted = applyLabelUpdate(versions, { version: 2, newLabels: ['production'] });
    const plan = planPromote(promoted, { from: 'staging', to: 'production', expectCurrent: 2 });
    expect(plan.noop).toBe(true);
    expect(plan.update).toBeNull();
    expect(plan.previousVersion).toBe(2);
  });

  it('fails the precondition when `from` is on no version', () => {
    expect(() => planPromote(versions, { from: 'qa', to: 'production' })).toThrow(LabelPreconditionError);
    expect(() => planPromote(versions, { from: 'qa', to: 'production' })).toThrow(/'qa' is on no version/);
  });

  it('refuses bad labels as usage errors before looking at the versions', () => {
    expect(() => planPromote(versions, { from: 'qa', to: 'Bad Label' })).toThrow(PromptUsageError);
  });

  it('refuses to promote to latest, to the same label, or from an empty label', () => {
    expect(() => planPromote(versions, { from: 'staging', to: 'latest' })).toThrow(PromptUsageError);
    expect(() => planPromote(versions, { from: 'staging', to: 'staging' })).toThrow(PromptUsageError);
    expect(() => planPromote(versions, { from: '', to: 'production' })).toThrow(PromptUsageError);
  });
});
