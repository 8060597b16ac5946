// Shell completion scripts generated from the commander tree, so a command added anywhere is
// completed without touching this file. The scripts are static: a TAB costs no Node.js start
// (bench/output.mjs measures it); only profile names are read at completion time, by running
// `llmobs profile list --names`. What completes, and from where, is described in ./tree.ts.
import type { Command } from 'commander';
import { bash } from './bash.js';
import { fish } from './fish.js';
import { describeTree } from './tree.js';
import { zsh } from './zsh.js';

export { type CommandSpec, describeTree, type OptionSpec, type ValueKind, valuesFor } from './tree.js';

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: Shell[] = ['bash', 'zsh', 'fish'];

export function generate(shell: Shell, program: Command): string {
  const specs = describeTree(program);
  switch (shell) {
    case 'bash':
      return bash(specs);
    case 'zsh':
      return zsh(specs);
    case 'fish':
      return fish(specs);
  }
}

/** Where each script lives in the package's completions/ directory. */
export function completionFileName(shell: Shell): string {
  return { bash: 'llmobs.bash', zsh: '_llmobs', fish: 'llmobs.fish' }[shell];
}

