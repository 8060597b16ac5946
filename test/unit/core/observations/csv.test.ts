import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from '../../../../src/core/observations/csv.js';

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
