// The pure pieces of the data commands: lenient numbers, times, fields, CSV.
import { describe, expect, it } from 'vitest';
import { CostSum, lenientNumber, lenientNumberMap, tokenSums } from '../../../src/core/numbers.js';
import { csvField, csvRow } from '../../../src/core/observations/csv.js';
import { groupColumns, parseFields, project, valueAt } from '../../../src/core/observations/fields.js';
import { parseMonth, parseTime } from '../../../src/core/time-range.js';

describe('lenient numbers', () => {
  it('reads numbers and numeric strings alike, and nothing else', () => {
    expect(lenientNumber(12)).toBe(12);
    expect(lenientNumber('12')).toBe(12);
    expect(lenientNumber('0.000125')).toBe(0.000125);
    expect(lenientNumber(' 1e-6 ')).toBe(0.000001);
    expect(lenientNumber('-3.5')).toBe(-3.5);
    for (const bad of ['', 'abc', '12abc', '0x1f', null, undefined, true, {}, [], Number.NaN, Number.POSITIVE_INFINITY, '1e999']) expect(lenientNumber(bad)).toBeNull();
  });

  it('keeps the readable values of a map', () => {
    expect(lenientNumberMap({ input: '100', output: 20, total: null, x: 'n/a' })).toEqual({ input: 100, output: 20 });
    expect(lenientNumberMap('nope')).toEqual({});
    expect(lenientNumberMap([1, 2])).toEqual({});
  });

  it('counts tokens as the Metrics API does: every key with input or output, total as given', () => {
    expect(tokenSums({ input: 100, input_cached_tokens: 20, output: 30, output_reasoning_tokens: 5, total: 155 })).toEqual({ input: 120, output: 35, total: 155 });
    expect(tokenSums({ input: 10, output: 2, total: 0 })).toEqual({ input: 10, output: 2, total: 0 });
  });

  it('without a total key, counts the total as ingestion does: the sum of every key', () => {
    expect(tokenSums({ INPUT_audio: 4 })).toEqual({ input: 4, output: 0, total: 4 });
    expect(tokenSums({ input: 10, output: 2, cache_read: 3 })).toEqual({ input: 10, output: 2, total: 15 });
    expect(tokenSums({})).toEqual({ input: 0, output: 0, total: 0 });
  });

  it('sums a million small costs without drift', () => {
    const sum = new CostSum();
    let naive = 0;
    for (let i = 0; i < 1_000_000; i++) {
      sum.add(0.000001);
      naive += 0.000001;
    }
    expect(sum.value).toBe(1);
    expect(naive).not.toBe(1);
    expect(sum.count).toBe(1_000_000);
  });
});

describe('times', () => {
  const now = new Date('2026-05-20T12:34:56.000Z');
  const ok = (text: string) => {
    const parsed = parseTime(text, now);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.time.toISOString();
  };

  it('takes ISO times with a zone, dates as midnight UTC, durations back from now, and now', () => {
    expect(ok('2026-05-01T00:00:00Z')).toBe('2026-05-01T00:00:00.000Z');
    expect(ok('2026-05-01T09:30+02:00')).toBe('2026-05-01T07:30:00.000Z');
    expect(ok('2026-05-01T09:30:15.250+0200')).toBe('2026-05-01T07:30:15.250Z');
    expect(ok('2026-05-01')).toBe('2026-05-01T00:00:00.000Z');
    expect(ok('24h')).toBe('2026-05-19T12:34:56.000Z');
    expect(ok('7d')).toBe('2026-05-13T12:34:56.000Z');
    expect(ok('30m')).toBe('2026-05-20T12:04:56.000Z');
    expect(ok('2w')).toBe('2026-05-06T12:34:56.000Z');
    expect(ok('now')).toBe('2026-05-20T12:34:56.000Z');
  });

  it('refuses local times, impossible dates and other text, saying why', () => {
    const fail = (text: string) => {
      const parsed = parseTime(text, now);
      expect(parsed.ok).toBe(false);
      return parsed.ok ? '' : parsed.message;
    };
    expect(fail('2026-05-01T09:30')).toContain('no Z or offset');
    expect(fail('2026-02-30')).toContain('not a calendar date');
    expect(fail('2026-05-01T25:00Z')).toContain('not a valid time');
    expect(fail('yesterday')).toContain('ISO 8601');
    expect(fail('7days')).toContain('"7days"');
  });

  it('reads a month as [first instant, first instant of the next)', () => {
    const month = parseMonth('2026-12');
    expect(month.ok && [month.from.toISOString(), month.to.toISOString()]).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(parseMonth('2026-13').ok).toBe(false);
    expect(parseMonth('May').ok).toBe(false);
  });
});

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

describe('CSV', () => {
  it('quotes what needs quoting and writes objects as JSON', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField(null)).toBe('');
    expect(csvField(0.00025)).toBe('0.00025');
    expect(csvField({ input: 1, text: 'a,"b"' })).toBe('"{""input"":1,""text"":""a,\\""b\\""""}"');
    expect(csvRow(['a', 1, null, true])).toBe('a,1,,true\n');
  });
});
