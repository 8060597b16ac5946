// Uncoloured output styles text without loading chalk (start-up): the stand-in must do exactly
// what chalk does at level 0. A file of its own, so that chalk is not loaded before it runs.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { loadColors, Output } from '../../../src/output/output.js';
import { Capture } from '../../helpers/streams.js';

describe('styles without chalk', () => {
  it('return the text exactly as chalk does with colours off, chained or not', () => {
    const out = new Output({ stdout: new Capture(false), stderr: new Capture(false), env: {}, json: false, noColor: true });
    const chalk = new Chalk({ level: 0 });
    const cases: Array<[string, (c: typeof chalk) => string]> = [
      ['bold', (c) => c.bold('a')],
      ['chain', (c) => c.bold.red.underline('a', 'b')],
      ['numbers', (c) => c.dim(1 as unknown as string)],
      ['rgb', (c) => c.rgb(1, 2, 3).bold('x')],
      ['hex', (c) => c.bgHex('#fff')('y')],
      ['visible', (c) => c.visible('hidden when uncoloured')],
      ['empty', (c) => c.yellow()],
    ];
    for (const [label, use] of cases) expect(use(out.c), label).toBe(use(chalk));
    expect(out.e.level).toBe(0);
  });

  it('need chalk loaded (Context.prepare() does it) once something is coloured', async () => {
    const coloured = () => new Output({ stdout: new Capture(true), stderr: new Capture(false), env: {}, json: false, noColor: false });
    expect(coloured).toThrow(/loadColors/);
    await loadColors();
    expect(coloured().c.bold('x')).toBe('\u001b[1mx\u001b[22m');
  });
});
