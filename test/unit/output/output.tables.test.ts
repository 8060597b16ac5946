// Tables as the output module prints them: CSV as RFC 4180 quotes it, --csv, --headers /
// --no-headers, and content exact when piped.
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../src/core/csv.js';
import { Output } from '../../../src/output/output.js';
import { Capture } from '../../helpers/streams.js';

function output(isTTY: boolean, options: { csv?: boolean; headers?: boolean } = {}) {
  const stdout = new Capture(isTTY);
  const stderr = new Capture(isTTY);
  return { out: new Output({ stdout, stderr, env: { NO_COLOR: '1' }, json: false, noColor: true, ...options }), stdout, stderr };
}

const columns = [{ header: 'NAME' }, { header: 'NOTE' }];
const rows = [['a,b', 'say "hi"'], ['multi\nline', null], ['plain', 3]];

describe('tables', () => {
  it('quotes CSV fields as RFC 4180 says: commas, quotes and line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('x\ny')).toBe('"x\ny"');
    expect(csvField('x\ry')).toBe('"x\ry"');
  });

  it('--csv prints a header row and quoted fields, on a terminal too, without colour', () => {
    for (const tty of [false, true]) {
      const { out, stdout } = output(tty, { csv: true });
      out.table(columns, rows);
      expect(stdout.text).toBe('NAME,NOTE\n"a,b","say ""hi"""\n"multi\nline",\nplain,3\n');
    }
  });

  it('--csv neutralises cells a spreadsheet would run as formulas (OWASP), on a terminal too; plain numbers stay numbers', () => {
    for (const tty of [false, true]) {
      const { out, stdout } = output(tty, { csv: true });
      out.table(columns, [['=HYPERLINK("http://evil.test")', -1.5], ['+1+cmd', '-0.25'], ['@x', '-']]);
      expect(stdout.text).toBe(`NAME,NOTE\n"'=HYPERLINK(""http://evil.test"")",-1.5\n'+1+cmd,-0.25\n'@x,'-\n`);
    }
  });

  it('--no-headers drops the header row from CSV and from the terminal table', () => {
    const csv = output(false, { csv: true, headers: false });
    csv.out.table(columns, rows);
    expect(csv.stdout.text).toBe('"a,b","say ""hi"""\n"multi\nline",\nplain,3\n');
    const tty = output(true, { headers: false });
    tty.out.table(columns, [['x', 'y']]);
    expect(tty.stdout.text).toBe('x  y\n');
  });

  it('piped TSV has no header unless --headers, and the same rows either way', () => {
    const plain = output(false);
    plain.out.table(columns, rows);
    expect(plain.stdout.text).toBe('a,b\tsay "hi"\nmulti line\t\nplain\t3\n');
    const headed = output(false, { headers: true });
    headed.out.table(columns, rows);
    expect(headed.stdout.text).toBe(`NAME\tNOTE\n${plain.stdout.text}`);
  });

  it('label/value pairs are FIELD,VALUE rows in CSV', () => {
    const { out, stdout } = output(false, { csv: true });
    out.keyValues([['Name', 'x'], ['Labels', 'a, b']]);
    expect(stdout.text).toBe('FIELD,VALUE\nName,x\nLabels,"a, b"\n');
  });

  it('content is exact when piped and ends with a line break on a terminal', () => {
    for (const [tty, text, expected] of [
      [false, 'no newline', 'no newline'],
      [false, 'two\n\n', 'two\n\n'],
      [true, 'no newline', 'no newline\n'],
      [true, 'has one\n', 'has one\n'],
    ] as const) {
      const { out, stdout } = output(tty);
      out.content(text);
      expect(stdout.text).toBe(expected);
    }
  });
});
