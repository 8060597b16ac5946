import type { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { generate, SHELLS, type Shell } from '../completion/generate.js';
import type { ActionInput } from './action.js';

export default async function action(ctx: Context, { args, command }: ActionInput): Promise<void> {
  const shell = args[0] as string;
  if (!SHELLS.includes(shell as Shell)) throw new UsageError(`unknown shell "${shell}"; use one of ${SHELLS.join(', ')}`);
  let root: Command = command;
  while (root.parent) root = root.parent;
  ctx.out.write(generate(shell as Shell, root));
}
