import { z } from 'zod';
import type { Context } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { isWrite } from '../../core/prompts/sync-plan.js';
import { colourDiff } from '../../output/diff.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { actionJson, describeAction, diffOf, fileProblemsError, preparePlan, problemsOf, statusOf, SyncOptions } from './sync-shared.js';

const Options = SyncOptions.extend({ exitCode: z.boolean().default(false) });
type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, names: args[0] ?? [] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  const prepared = await preparePlan(ctx, { names: opts.names, dir: opts.dir, labels: opts.label });
  const { plan } = prepared;
  const problems = problemsOf(prepared);
  const writes = plan.actions.filter(isWrite);
  const inSync = writes.length === 0 && problems.length === 0;

  if (ctx.globals.json) {
    ctx.out.printJson({
      inSync,
      prompts: plan.actions.map(actionJson),
      refused: problems,
      serverOnly: plan.serverOnly,
    });
  } else {
    const rows = [
      ...plan.actions.map((action) => [statusOf(action), action.name, describeAction(action)]),
      ...plan.serverOnly.map((name) => ['server only', name, 'no file']),
    ];
    ctx.out.table(
      [
        { header: 'STATUS', style: (text, c) => (text === 'unchanged' ? c.dim(text) : text === 'server only' ? c.yellow(text) : c.bold(text)) },
        { header: 'NAME' },
        { header: 'WHAT PUSH WOULD DO' },
      ],
      rows,
    );
    for (const write of writes) {
      const diff = diffOf(write);
      for (const patch of [diff.content, diff.config]) if (patch) ctx.out.write(colourDiff(ctx.out, patch));
    }
    const unchanged = plan.actions.length - writes.length;
    const summary = `${unchanged} unchanged, ${writes.length} to push${plan.serverOnly.length ? `, ${plan.serverOnly.length} only on the server` : ''}`;
    const push = ['llmobs prompts push', ...opts.names.map(shellWord), ...(opts.dir === 'prompts' ? [] : ['--dir', shellWord(opts.dir)]), ...opts.label.flatMap((l) => ['--label', l])];
    ctx.out.info(inSync ? `In sync: ${summary}.` : `Not in sync: ${summary}. Push with: ${push.join(' ')}`);
  }
  if (problems.length > 0) throw fileProblemsError(problems);
  if (opts.exitCode && !inSync) ctx.exitCode = ExitCode.precondition;
}

/** A word a POSIX shell reads back as it is. */
function shellWord(value: string): string {
  return /^[\w./@%+=:,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
