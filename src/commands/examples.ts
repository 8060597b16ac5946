// Examples, kept next to each command's definition and shown at the end of its --help. A test
// walks the command tree: every command needs examples, and each must parse as written.
import type { Command } from 'commander';

const registered = new WeakMap<Command, readonly string[]>();

/**
 * Adds an "Examples:" section to the command's help. Each entry is a command line; a line that
 * starts with `#` is a comment that explains the next one.
 */
export function examples<T extends Command>(command: T, ...lines: string[]): T {
  registered.set(command, lines);
  command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`);
  return command;
}

export function examplesOf(command: Command): readonly string[] {
  return registered.get(command) ?? [];
}
