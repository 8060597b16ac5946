import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { examples } from '../examples.js';
import { collect } from '../options.js';
import { addPagingFlags } from '../paging-flags.js';

const TIME = 'ISO time with Z or offset, a date (midnight UTC), 30m/24h/7d/2w ago, or now';

export function registerTraces(program: Command, ctx: Context): void {
  const traces = program.command('traces').description('read traces: one as a tree of its observations with totals, or a filtered list');
  examples(traces, 'llmobs traces list --user user-42 --from 24h', 'llmobs traces get 7f3c9a2e --io');

  const get = traces
    .command('get')
    .description('show a trace as a tree: each observation\'s type, name, model, level, start, duration, usage, cost and status, and the totals')
    .argument('<id>', 'trace id')
    .option('--io', 'show inputs and outputs (cut to the terminal\'s width on a terminal, whole when piped)')
    .option('--wait <seconds>', 'when the trace is not there (yet), ask again until it is or the time is up (ingestion is asynchronous)')
    .action(lazy(ctx, () => import('./get.js')));
  examples(get, 'llmobs traces get 7f3c9a2e', 'llmobs traces get 7f3c9a2e --io', '# right after sending it: ask again until it is there', 'llmobs traces get "$TRACE_ID" --wait 30 --json');

  const list = traces
    .command('list')
    .alias('ls')
    .description('list traces, newest first, with their cost and latency')
    .option('--name <name>', 'only traces with this name')
    .option('--user <id>', 'only traces of this user')
    .option('--session <id>', 'only traces of this session')
    .option('--tag <tag>', 'only traces with this tag (repeatable: all of them)', collect)
    .option('--environment <env>', 'only this environment (repeatable: any of them)', collect)
    .option('--release <release>', 'only traces of this release')
    .option('--version <version>', 'only traces of this version')
    .option('--from <time>', `timestamp on or after this (${TIME})`)
    .option('--to <time>', 'timestamp before this (same forms)')
    .option('--order-by <field.dir>', 'sort, e.g. timestamp.asc or name.desc (default: newest first)');
  addPagingFlags(list, { noun: 'traces', serverDefault: 50 }).action(lazy(ctx, () => import('./list.js')));
  examples(list, 'llmobs traces list', 'llmobs traces list --user user-42 --from 24h', 'llmobs traces list --tag beta --environment production --limit 200 --json');
}
