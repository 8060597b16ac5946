// Glue between commander and command modules: modules load only when their command runs.
import type { Command } from 'commander';
import { type Context, globalsFrom } from '../context.js';

export interface ActionInput {
  /** Declared arguments in order (a variadic argument is an array). */
  args: unknown[];
  /** The command's own options (globals are in ctx.globals). */
  opts: Record<string, unknown>;
  command: Command;
}

export interface CommandModule {
  default: (ctx: Context, input: ActionInput) => Promise<void>;
}

export function lazy(ctx: Context, load: () => Promise<CommandModule>) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params[params.length - 1] as Command;
    ctx.globals = globalsFrom(command.optsWithGlobals());
    // The verb's module and the output module load side by side: each import is a file read, and
    // one after the other they add up at start-up.
    const [module] = await Promise.all([load(), ctx.prepare()]);
    await module.default(ctx, { args: params.slice(0, -2), opts: command.opts(), command });
  };
}
