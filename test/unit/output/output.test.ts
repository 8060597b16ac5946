import { beforeAll, describe, expect, it } from 'vitest';
import { colorLevel } from '../../../src/output/color.js';
import { loadColors, loadTables, Output } from '../../../src/output/output.js';
import { Capture } from '../../helpers/streams.js';

describe('colorLevel', () => {
  it('follows --no-color, FORCE_COLOR, NO_COLOR, then the terminal', () => {
    expect(colorLevel({ env: {}, isTTY: true, noColorFlag: false })).toBe(1);
    expect(colorLevel({ env: {}, isTTY: false, noColorFlag: false })).toBe(0);
    expect(colorLevel({ env: { NO_COLOR: '1' }, isTTY: true, noColorFlag: false })).toBe(0);
    expect(colorLevel({ env: { NO_COLOR: '' }, isTTY: true, noColorFlag: false })).toBe(1);
    expect(colorLevel({ env: { FORCE_COLOR: '1' }, isTTY: false, noColorFlag: false })).toBe(1);
    expect(colorLevel({ env: { FORCE_COLOR: '3', NO_COLOR: '1' }, isTTY: false, noColorFlag: false })).toBe(3);
    expect(colorLevel({ env: { FORCE_COLOR: '0' }, isTTY: true, noColorFlag: false })).toBe(0);
    expect(colorLevel({ env: { FORCE_COLOR: '1' }, isTTY: true, noColorFlag: true })).toBe(0);
    expect(colorLevel({ env: { TERM: 'dumb' }, isTTY: true, noColorFlag: false })).toBe(0);
    expect(colorLevel({ env: { TERM: 'xterm-256color' }, isTTY: true, noColorFlag: false })).toBe(2);
    expect(colorLevel({ env: { COLORTERM: 'truecolor' }, isTTY: true, noColorFlag: false })).toBe(3);
  });
});

beforeAll(() => loadColors());

function output(isTTY: boolean, env: Record<string, string> = {}, json = false) {
  const stdout = new Capture(isTTY);
  const stderr = new Capture(isTTY);
  return { out: new Output({ stdout, stderr, env, json, noColor: false, redact: (t) => t.replaceAll('s3cret', '[redacted]') }), stdout, stderr };
}

describe('Output', () => {
  const columns = [{ header: 'NAME' }, { header: 'PRICE', align: 'right' as const }];
  const rows = [['gpt-4o', '0.0000025'], ['claude\tx', null]];

  it('prints tab-separated rows without header or colour when piped', () => {
    const { out, stdout } = output(false);
    out.table(columns, rows);
    expect(stdout.text).toBe('gpt-4o\t0.0000025\nclaude x\t\n');
  });

  it('prints an aligned table with a header on a terminal', async () => {
    await loadTables(); // Context.prepare() does this when stdout is a terminal
    const { out, stdout } = output(true, { NO_COLOR: '1' });
    out.table(columns, rows);
    const lines = stdout.text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+PRICE$/);
    expect(lines[1]).toMatch(/^gpt-4o\s+0\.0000025$/);
    expect(lines).toHaveLength(3);
  });

  it('colours a terminal table unless NO_COLOR is set', () => {
    const colored = output(true, { FORCE_COLOR: '1' });
    colored.out.table(columns, rows);
    expect(colored.stdout.text).toContain('\u001b[1m');
    const plain = output(true, { NO_COLOR: '1' });
    plain.out.table(columns, rows);
    expect(plain.stdout.text).not.toContain('\u001b[');
  });

  it('keeps the styling of label/value pairs on a terminal, and still escapes other controls', () => {
    const { out, stdout } = output(true, { FORCE_COLOR: '1' });
    out.keyValues([['Server', `http://x  ${out.c.dim('(profile "p")')}`], ['Name', `evil\u001b]0;t\u0007\u001b[2J\ttab`]]);
    expect(stdout.text).toContain('\u001b[2m(profile "p")\u001b[22m');
    expect(stdout.text).not.toContain('\\e[2m');
    expect(stdout.text).toContain('evil\\e]0;t\\x07\\e[2J\\ttab');
  });

  it('writes errors to stderr only, as JSON with --json', () => {
    const { out, stdout, stderr } = output(false, {}, true);
    out.error({ code: 'not_found', message: 'no such model', exitCode: 8, status: 404, hint: 'list them' });
    expect(stdout.text).toBe('');
    expect(JSON.parse(stderr.text)).toEqual({ error: { code: 'not_found', message: 'no such model', exitCode: 8, status: 404, hint: 'list them' } });
  });

  it('removes secrets from everything it writes', () => {
    const { out, stdout, stderr } = output(false);
    out.line('token s3cret');
    out.warn('leaked s3cret');
    expect(stdout.text).toBe('token [redacted]\n');
    expect(stderr.text).toContain('leaked [redacted]');
  });
});

describe('Progress', () => {
  it('draws on a terminal at most every 200 ms, clears its line, and stays silent when piped', async () => {
    const { Progress } = await import('../../../src/output/output.js');
    const tty = new Capture(true);
    const progress = new Progress(tty);
    progress.update(() => 'one', 1_000);
    progress.update(() => 'skipped', 1_100);
    progress.update(() => 'two', 1_250);
    progress.clear();
    expect(tty.text).toBe('\r\u001b[2Kone\r\u001b[2Ktwo\r\u001b[2K');
    const piped = output(false).out.progress();
    piped.update(() => 'never', 5_000);
    piped.clear();
  });

  it('is not drawn when stderr is not a terminal', () => {
    const { out, stderr } = output(false);
    const progress = out.progress();
    progress.update(() => 'never', 5_000);
    progress.clear();
    expect(stderr.text).toBe('');
  });
});
