import { describe, expect, it } from 'vitest';
import { groupColumns, parseFields, project, valueAt } from '../../../../src/core/observations/fields.js';

describe('--fields', () => {
  it('asks for the groups given, core always, and writes whole observations', () => {
    const parsed = parseFields(['usage,model'], ['basic']);
    expect(parsed).toEqual({ ok: true, selection: { groups: ['core', 'model', 'usage'], columns: null } });
    expect(parseFields(undefined, ['basic', 'io'])).toEqual({ ok: true, selection: { groups: ['core', 'basic', 'io'], columns: null } });
  });

  it('with field names, asks for their groups and writes exactly those columns in order', () => {
    const parsed = parseFields(['totalCost,id', 'usageDetails.input', 'totalCost'], []);
    expect(parsed).toEqual({ ok: true, selection: { groups: ['core', 'usage'], columns: ['totalCost', 'id', 'usageDetails.input'] } });
    const mixed = parseFields(['metrics,providedModelName'], []);
    expect(mixed.ok && mixed.selection.columns).toEqual(['latency', 'timeToFirstToken', 'providedModelName']);
  });

  it('refuses an unknown field with the list of groups', () => {
    const parsed = parseFields(['cost'], []);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toContain('unknown field "cost"');
    expect(parseFields(['usageDetails.'], []).ok).toBe(false);
  });

  it('refuses --fields given with nothing in it (an empty variable in a script), rather than taking every field', () => {
    for (const items of [[''], [' , '], ['core', '']]) {
      const parsed = parseFields(items, ['basic']);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.message).toContain('empty');
    }
    expect(parseFields(undefined, ['basic'])).toMatchObject({ ok: true, selection: { groups: ['core', 'basic'] } });
    expect(parseFields(['core,basic,'], [])).toMatchObject({ ok: true });
  });

  it('reads paths and projects objects', () => {
    const item = { id: 'a', usageDetails: { input: 3 }, tags: ['x'] };
    expect(valueAt(item, 'usageDetails.input')).toBe(3);
    expect(valueAt(item, 'usageDetails.output')).toBeUndefined();
    expect(valueAt(item, 'tags.0')).toBe('x');
    expect(project(item, ['usageDetails.input', 'name'])).toEqual({ 'usageDetails.input': 3, name: null });
    expect(groupColumns(['core'])).toEqual(['id', 'traceId', 'startTime', 'endTime', 'projectId', 'parentObservationId', 'type']);
  });
});
