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
  // Made when a help is shown, not at every start.
  command.addHelpText('after', () => examplesSection(lines));
  return command;
}

/**
 * A command's examples, for a help that writes them itself (the program's: examplesSection at the
 * end of its text, one write with the rest).
 */
export function registerExamples(command: Command, lines: readonly string[]): void {
  registered.set(command, lines);
}

/** The "Examples:" section of a help. */
export function examplesSection(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

export function examplesOf(command: Command): readonly string[] {
  return registered.get(command) ?? [];
}

/** Width of the prose at the end of a help, as commander's own wrapping when piped. */
const HELP_WIDTH = 80;

/**
 * Prose for the end of a command's help, reflowed to 80 columns. Paragraphs are separated by a
 * blank line; inside one, a line that starts a sentence (a capital letter, or an option such as
 * `--json` after a full stop) starts a new line, and the others continue the line before.
 * Reflowed when a help is shown (commander calls the function), not whenever the command is defined.
 */
export function helpText(text: string): () => string {
  return () => reflow(text);
}

function reflow(text: string): string {
  return text
    .split('\n\n')
    .map((paragraph) => {
      const lines: string[] = [];
      for (const line of paragraph.split('\n')) {
        const previous = lines.at(-1);
        const startsSentence = /[.:)]$/.test(previous ?? '') && /^([A-Z]|--)/.test(line);
        if (previous && line && !startsSentence) lines[lines.length - 1] = `${previous} ${line}`;
        else lines.push(line);
      }
      return lines.map((line) => wrapLine(line, HELP_WIDTH)).join('\n');
    })
    .join('\n\n');
}

/** Greedy word wrap; `indent` starts each continuation line. A word longer than a line stays whole. */
export function wrapLine(line: string, width: number, indent = ''): string {
  // The leading spaces, found without a regex (its first use compiles it, in every --help).
  let spaces = 0;
  while (line.charCodeAt(spaces) === 32) spaces++;
  const lead = line.slice(0, spaces);
  const out: string[] = [];
  let current = lead;
  for (const word of line.slice(lead.length).split(' ')) {
    if (current.trim() && current.length + 1 + word.length > width) {
      out.push(current);
      current = indent + word;
    } else {
      current = current.trim() ? `${current} ${word}` : current + word;
    }
  }
  out.push(current);
  return out.join('\n');
}
