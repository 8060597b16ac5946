import { describe, expect, it } from 'vitest';
import { csvField, csvRow, neutralise } from '../../../src/core/csv.js';

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

// OWASP, CSV Injection (https://owasp.org/www-community/attacks/CSV_Injection): cells that start
// with =, +, -, @, tab or carriage return get a leading single quote.
describe('CSV injection', () => {
  it('prefixes a cell a spreadsheet would run as a formula with a single quote', () => {
    expect(csvField('=HYPERLINK("http://evil.test","click")')).toBe(`"'=HYPERLINK(""http://evil.test"",""click"")"`);
    expect(csvField('+cmd|\' /C calc\'!A0')).toBe("'+cmd|' /C calc'!A0");
    expect(csvField('-2+3+cmd|\' /C calc\'!A0')).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvField('@SUM(1+1)*cmd')).toBe("'@SUM(1+1)*cmd");
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvField('-')).toBe("'-");
    expect(csvField('-$0.50')).toBe("'-$0.50");
    expect(csvRow(['=1', 'a=1', ' =1'])).toBe(`'=1,a=1," =1"\n`);
  });

  it('leaves plain numbers alone, numbers or strings: a spreadsheet reads them as numbers', () => {
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(-0.00025)).toBe('-0.00025');
    expect(csvField(-1e-7)).toBe('-1e-7');
    expect(csvField('-1.5')).toBe('-1.5');
    expect(csvField('+3e-4')).toBe('+3e-4');
    expect(csvField('-.5')).toBe('-.5');
    expect(csvField('-1.5.2')).toBe("'-1.5.2");
    expect(csvField('-1e')).toBe("'-1e");
    expect(csvField(-Infinity)).toBe("'-Infinity");
  });

  it('neutralise is the rule for one cell', () => {
    expect(neutralise('=1')).toBe("'=1");
    expect(neutralise('plain')).toBe('plain');
    expect(neutralise('')).toBe('');
    expect(neutralise('-12')).toBe('-12');
  });
});
