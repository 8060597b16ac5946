// llmobs help prompts create: the help of a command at any depth, aliases included.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { complete, defineCommand } from './define.js';

export default defineCommand({
  name: 'help',
  summary: 'show the help of a command, at any depth',
  args: [{ name: '[command...]', help: 'the command, e.g. prompts create' }],
  examples: ['llmobs help prompts create', 'llmobs help labels promote'],
  async run(_ctx, { args, command }) {
    const words = (args[0] as string[] | undefined) ?? [];
    let target: Command = command.parent ?? command;
    for (const [index, word] of words.entries()) {
      await complete(target);
      const next = target.commands.find((child) => child.name() === word || child.aliases().includes(word));
      if (!next) {
        const known = target.commands.map((child) => child.name()).filter((name) => name !== 'help');
        const where = ['llmobs', ...words.slice(0, index)].join(' ');
        throw new UsageError(`unknown command "${words.slice(0, index + 1).join(' ')}"`, { hint: `Commands of ${where}: ${known.join(', ')}` });
      }
      target = next;
    }
    await complete(target);
    target.outputHelp();
  },
});
