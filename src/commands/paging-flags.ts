// The flags every list command shares: --limit is the most items printed, --all reads every page,
// --page picks one page. Registration only (commander); the reading is in ./paging.ts, which list
// commands load when they run.
import type { Command } from 'commander';

export interface PagingFlagsOptions {
  /** What is listed, plural: "prompts", "model definitions". */
  noun: string;
  /** The server's page size when none is asked for. */
  serverDefault: number;
  /** Whether the endpoint pages by number (--page); cursor-based lists have no --page. */
  pages?: boolean;
}

export function addPagingFlags(command: Command, options: PagingFlagsOptions): Command {
  command
    .option('--limit <n>', `print at most n ${options.noun}, reading as many pages as that takes (default: one page, the server's ${options.serverDefault})`)
    .option('--all', `every one of the ${options.noun}, all pages`);
  if (options.pages !== false) command.option('--page <n>', 'only this page, from 1 (its size: --limit, at most 100)');
  return command;
}
