// The flags every list command shares: --limit is the most items printed, --all reads every page,
// --page picks one page. The reading is in ./paging.ts, which list commands load when they run.
import type { FlagDefinition } from './define.js';

export interface PagingFlagsOptions {
  /** What is listed, plural: "prompts", "model definitions". */
  noun: string;
  /** The server's page size when none is asked for. */
  serverDefault: number;
  /** Whether the endpoint pages by number (--page); cursor-based lists have no --page. */
  pages?: boolean;
}

export function pagingFlags(options: PagingFlagsOptions): FlagDefinition[] {
  return [
    { flags: '--limit <n>', help: `print at most n ${options.noun}, reading as many pages as that takes (default: one page, the server's ${options.serverDefault})` },
    { flags: '--all', help: `every one of the ${options.noun}, all pages` },
    ...(options.pages === false ? [] : [{ flags: '--page <n>', help: 'only this page, from 1 (its size: --limit, at most 100)' }]),
  ];
}
