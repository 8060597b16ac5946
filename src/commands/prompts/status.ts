// llmobs prompts status: compare a directory of prompt files with the server, and say what push would do.
import { ExitCode } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'status',
  summary: 'compare a directory of prompt files with the server: unchanged, changed (with diffs), new, labels or tags to set, and prompts only on the server',
  args: [
    { name: '[names...]', help: 'only these prompts (default: every file in the directory)' },
  ],
  flags: [
    { flags: '--dir <dir>', help: 'directory of prompt files', default: 'prompts' },
    { flags: '-l, --label <label>', help: 'also check that this label points at a version equal to each file (repeatable)', repeatable: true },
    { flags: '--exit-code', help: 'exit 9 when something would be pushed (0 when in sync), for CI checks' },
  ],
  notes: `
  Reads the list of prompts (one request per 100) and each file's latest version
  (one request per prompt); a label that is not on the latest version costs one
  more request for that prompt.
  Every file is checked first: problems are reported together and exit 2.`,
  examples: [
    'llmobs prompts status',
    'llmobs prompts status --label production --exit-code',
    'llmobs prompts status support/agent --dir prompts --json',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { isWrite }, { colourDiff }, { shellQuote }, { actionJson, DEFAULT_PROMPT_DIR, describeAction, diffOf, fileProblemsError, preparePlan, problemsOf, statusOf, SyncOptions }] = await Promise.all([import('zod'), import('../../core/prompts/sync-plan.js'), import('../../output/diff.js'), import('../../core/shell-quote.js'), import('./sync-shared.js')]);
    const opts = parseOptions(SyncOptions.extend({ exitCode: z.boolean().default(false) }), { ...given, names: args[0] ?? [] });
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
      const push = ['llmobs prompts push', ...opts.names.map(shellQuote), ...(opts.dir === DEFAULT_PROMPT_DIR ? [] : ['--dir', shellQuote(opts.dir)]), ...opts.label.flatMap((l) => ['--label', l])];
      // Push refuses while any file has a problem: it is suggested only when it would go through.
      if (inSync) ctx.out.info(`In sync: ${summary}.`);
      else if (problems.length > 0) ctx.out.info(`Not in sync: ${summary}, ${problems.length === 1 ? '1 file' : `${problems.length} files`} with problems (below). Fix ${problems.length === 1 ? 'it' : 'them'} first: push sends nothing while any file has a problem.`);
      else ctx.out.info(`Not in sync: ${summary}. Push with: ${push.join(' ')}`);
    }
    if (problems.length > 0) throw fileProblemsError(problems);
    if (opts.exitCode && !inSync) ctx.exitCode = ExitCode.precondition;
  },
});
