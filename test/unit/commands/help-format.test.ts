// The help's own formatter against commander's: the same text for every command of the tree, at
// every width, and commander's wherever the help uses what the formatter does not write.
import { Command, Help } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli.js';
import { formatHelp } from '../../../src/commands/help-format.js';
import { Context, defaultDeps } from '../../../src/context.js';

function walk(command: Command): Command[] {
  return [command, ...command.commands.flatMap(walk)];
}

const tree = walk(await buildProgram(new Context(defaultDeps())));
const name = (command: Command): string => (command.parent ? `${name(command.parent)} ${command.name()}` : command.name());

/** The helper commander makes for a help at this width (configured as the program configures it). */
function helperFor(command: Command, helpWidth: number): Help {
  const helper = command.createHelp();
  helper.prepareContext({ helpWidth, error: false, outputHasColors: false });
  return helper;
}

const commanders = (command: Command, helper: Help): string => Help.prototype.formatHelp.call(helper, command, helper);

describe('formatHelp', () => {
  it('covers the whole tree', () => {
    expect(tree.length).toBeGreaterThan(50);
  });

  // Below 40 columns nothing wraps; 36 to 44 cross that line for the descriptions beside terms too.
  const widths = [1, 20, 39, 40, 41, 44, 50, 60, 72, 79, 80, 81, 100, 120, 132, 200, 1000];
  it.each(tree.map((command) => [name(command), command] as const))('%s: the same text as commander at every width', (_label, command) => {
    for (const width of widths) {
      const helper = helperFor(command, width);
      expect(formatHelp(command, helper), `width ${width}`).toBe(commanders(command, helperFor(command, width)));
    }
  });

  it('writes what commander writes for arguments with descriptions, option details, empty lines in text and no description', () => {
    const program = new Command('demo').description('first line\n\n  indented, kept as written\nlast').helpCommand(true);
    program
      .command('one')
      .argument('<file>', 'the file to read, a long description that wraps beyond the width of the line at eighty columns')
      .argument('[rest...]', '', ['a'])
      .option('--mode <mode>', 'how', 'fast')
      .option('--flag', '')
      .option('--list <items...>', 'several\n  preformatted lines');
    program.command('two').alias('2');
    for (const command of walk(program)) {
      for (const width of widths) expect(formatHelp(command, helperFor(command, width)), `${name(command)} at ${width}`).toBe(commanders(command, helperFor(command, width)));
    }
  });

  /** Random texts made of these pieces, as descriptions of a program, an option and a command. */
  function agreesOnTexts(pieces: string[], maxLength: number): void {
    const text = fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, text, fc.integer({ min: 1, max: 140 }), (description, optionText, commandText, width) => {
        const program = new Command('demo').description(description);
        program.option('--some-option <value>', optionText);
        program.command('sub').description(commandText);
        expect(formatHelp(program, helperFor(program, width))).toBe(commanders(program, helperFor(program, width)));
      }),
      { numRuns: 3000 },
    );
  }

  it('wraps and measures any text as commander does: every kind of white space, line breaks, text laid out by hand', () => {
    agreesOnTexts([' ', '  ', '\t', '\n', '\r\n', '\r', '\n ', '\n\t', '\u00a0', '\u3000', '\u2028', '\ufeff', '\u200b', 'a', 'word', 'é', '😀', 'x'.repeat(45), '-', '[options]'], 40);
  });

  it("wraps text whose only white space is spaces and line breaks as commander does (as llmobs's own texts are)", () => {
    agreesOnTexts([' ', '  ', '\n', '\n ', '\n\n', 'a', 'word', 'x'.repeat(45), '-', '[options]', '--flag <value>'], 60);
  });

  it('leaves to commander a help with colour codes, styles, help groups or global options', () => {
    const coloured = new Command('demo').description('\x1b[1mbold\x1b[22m text');
    coloured.command('sub').description('plain');
    const styled = new Command('demo').configureHelp({ styleTitle: (text) => `== ${text} ==` });
    styled.command('sub').description('plain');
    const grouped = new Command('demo');
    grouped.command('sub').description('plain').helpGroup('Things:');
    grouped.option('--x', 'an option').helpGroup('Flags:');
    const globals = new Command('demo').option('--global', 'everywhere').configureHelp({ showGlobalOptions: true });
    const child = globals.command('sub').description('plain').option('--own', 'here');
    for (const command of [coloured, styled, grouped, globals, child]) {
      const helper = helperFor(command, 80);
      const text = formatHelp(command, helper);
      expect(text).toBe(commanders(command, helperFor(command, 80)));
    }
    // What makes these cases commander's: its sections and styles show in the text.
    expect(formatHelp(styled, helperFor(styled, 80))).toContain('== Usage: ==');
    expect(formatHelp(grouped, helperFor(grouped, 80))).toContain('Things:');
    expect(formatHelp(child, helperFor(child, 80))).toContain('Global Options:');
  });
});

describe('the program\'s output without colours', () => {
  it('strips colour codes as commander does, and passes text without an escape character as it is', async () => {
    const program = await buildProgram(new Context(defaultDeps()));
    const { stripColor } = program.configureOutput() as { stripColor: (text: string) => string };
    const coloured = 'a \x1b[1mbold\x1b[22m and \x1b[31;1mred\x1b[0m word';
    expect(stripColor(coloured)).toBe('a bold and red word');
    expect(stripColor(coloured)).toBe(new Command().configureOutput().stripColor!(coloured));
    const plain = 'Usage: llmobs [options] [command]\n';
    expect(stripColor(plain)).toBe(plain);
  });
});
