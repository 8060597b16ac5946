import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../../../src/commands/options.js';
import { ListOptions, parseExpectCurrent, versionOrLabel } from '../../../../src/commands/prompts/shared.js';
import { UsageError } from '../../../../src/errors.js';

describe('prompts list options', () => {
  const parse = (opts: Record<string, unknown>) => parseOptions(ListOptions, opts);
  const refusal = (opts: Record<string, unknown>): string => {
    try {
      parse(opts);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as UsageError).message;
    }
    throw new Error('expected a usage error');
  };

  it('takes either bound alone, or both in order', () => {
    expect(parse({ fromUpdatedAt: '2026-05-01T00:00:00Z' })).toMatchObject({ fromUpdatedAt: '2026-05-01T00:00:00Z' });
    expect(parse({ toUpdatedAt: '2026-05-01T00:00:00Z' })).toMatchObject({ toUpdatedAt: '2026-05-01T00:00:00Z' });
    // 09:30+02:00 is 07:30Z: before 08:00Z although it reads later.
    expect(parse({ fromUpdatedAt: '2026-05-01T09:30:00+02:00', toUpdatedAt: '2026-05-01T08:00:00Z' })).toMatchObject({ fromUpdatedAt: '2026-05-01T09:30:00+02:00' });
  });

  it('names the flag and the value, and says what is expected', () => {
    expect(refusal({ fromUpdatedAt: '2026-05-01' })).toBe(
      '--from-updated-at: must be an ISO 8601 date and time with Z or an offset, such as 2026-05-01T00:00:00Z or 2026-05-01T09:30+02:00, not "2026-05-01"',
    );
    expect(refusal({ toUpdatedAt: '2026-05-01T00:00:00' })).toMatch(/^--to-updated-at: must be an ISO 8601 date and time .*, not "2026-05-01T00:00:00"$/);
  });

  it('refuses a range that nothing can fall in: from after to, or equal (to is exclusive)', () => {
    expect(refusal({ fromUpdatedAt: '2026-06-01T00:00:00Z', toUpdatedAt: '2026-05-01T00:00:00Z' })).toBe(
      '--from-updated-at (2026-06-01T00:00:00Z) must be earlier than --to-updated-at (2026-05-01T00:00:00Z): from is inclusive and to exclusive, so nothing could match',
    );
    expect(refusal({ fromUpdatedAt: '2026-05-01T02:00:00+02:00', toUpdatedAt: '2026-05-01T00:00:00Z' })).toContain('must be earlier than');
    // A bad bound is reported once, by its own flag, not compared.
    expect(refusal({ fromUpdatedAt: 'soon', toUpdatedAt: '2026-05-01T00:00:00Z' })).not.toContain('earlier');
  });
});

describe('small parsers', () => {

  it('reads a diff side as a version when it is digits, else a label', () => {
    expect(versionOrLabel('12')).toEqual({ version: 12 });
    expect(versionOrLabel('production')).toEqual({ label: 'production' });
    expect(() => versionOrLabel('0')).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('reads --expect-current as a version or none', () => {
    expect(parseExpectCurrent(undefined)).toBeUndefined();
    expect(parseExpectCurrent('none')).toBeNull();
    expect(parseExpectCurrent('3')).toBe(3);
    expect(() => parseExpectCurrent('3.5')).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});
