import { describe, expect, it } from 'vitest';
import { clickhouseTime, exportColumns, exportRow } from '../../../../src/core/blob-export/rows.js';
import { GROUP_NAMES, parseFields } from '../../../../src/core/observations/fields.js';

const selection = (items?: string[]) => {
  const parsed = parseFields(items, GROUP_NAMES);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.selection;
};

describe('export rows', () => {
  it('write times as ClickHouse writes a DateTime64(6), in UTC', () => {
    expect(clickhouseTime('2026-05-01T12:00:00.123Z')).toBe('2026-05-01 12:00:00.123000');
    expect(clickhouseTime('2026-05-01T12:00:00Z')).toBe('2026-05-01 12:00:00.000000');
    expect(clickhouseTime('2026-05-01T12:00:00.1234567Z')).toBe('2026-05-01 12:00:00.123456');
    expect(clickhouseTime('2026-05-01T14:00:00.5+02:00')).toBe('2026-05-01 12:00:00.500000');
    expect(clickhouseTime(null)).toBeNull();
    expect(clickhouseTime('not a time')).toBe('not a time');
  });

  it('have Langfuse\'s columns per group, the prices after the groups except in Parquet', () => {
    const names = exportColumns(selection(['core', 'model']), false).map((c) => c.name);
    expect(names).toEqual(['id', 'trace_id', 'start_time', 'end_time', 'project_id', 'parent_observation_id', 'type', 'provided_model_name', 'model_id', 'model_parameters', 'input_price', 'output_price', 'total_price']);
    expect(exportColumns(selection(['core', 'model']), true).map((c) => c.name)).not.toContain('input_price');
    expect(exportColumns(selection(), false).map((c) => c.name)).toContain('time_to_first_token');
  });

  it('take named fields in their order, under their export names, paths included', () => {
    const columns = exportColumns(selection(['id,providedModelName,usageDetails.input,startTime']), false);
    expect(columns.map((c) => c.name)).toEqual(['id', 'provided_model_name', 'usage_details.input', 'start_time']);
    const row = exportRow({ id: 'o1', providedModelName: 'gpt-4o', usageDetails: { input: 7 }, startTime: '2026-05-01T00:00:00.001Z' }, columns);
    expect(row).toEqual({ id: 'o1', provided_model_name: 'gpt-4o', 'usage_details.input': 7, start_time: '2026-05-01 00:00:00.001000' });
  });

  it('fill what the server left out with null', () => {
    const row = exportRow({ id: 'o1' }, exportColumns(selection(['core']), false));
    expect(row).toEqual({ id: 'o1', trace_id: null, start_time: null, end_time: null, project_id: null, parent_observation_id: null, type: null });
  });
});
