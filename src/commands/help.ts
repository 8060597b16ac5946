import type { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { ActionInput } from './action.js';

/** `llmobs help prompts create`: the help of a command at any depth, aliases included. */
export default async function action(_ctx: Context, { args, command }: ActionInput): Promise<void> {
  const words = (args[0] as string[] | undefined) ?? [];
  let target: Command = command.parent ?? command;
  for (const [index, word] of words.entries()) {
    const next = target.commands.find((child) => child.name() === word || child.aliases().includes(word));
    if (!next) {
      const known = target.commands.map((child) => child.name()).filter((name) => name !== 'help');
      const where = ['llmobs', ...words.slice(0, index)].join(' ');
      throw new UsageError(`unknown command "${words.slice(0, index + 1).join(' ')}"`, { hint: `Commands of ${where}: ${known.join(', ')}` });
    }
    target = next;
  }
  target.outputHelp();
}
