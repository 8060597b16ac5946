// llmobs prompts push: make the server match a directory of prompt files: a new version only where the content differs, labels moved, referenced prompts first.
import type { PushResult } from './push-write.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'push',
  summary: 'make the server match a directory of prompt files: a new version only where the content differs, labels moved, referenced prompts first',
  args: [
    { name: '[names...]', help: 'only these prompts (default: every file in the directory)' },
  ],
  flags: [
    { flags: '--dir <dir>', help: 'directory of prompt files', default: 'prompts' },
    { flags: '-l, --label <label>', help: 'point this label at a version equal to each pushed file: the new version, or the latest by a label move (repeatable; never latest)', repeatable: true },
    { flags: '-m, --message <message>', help: 'commit message of the versions created' },
    { flags: '--dry-run', help: 'print the plan and send nothing' },
  ],
  notes: `
  A version is created only when type, prompt or config differ from the latest
  version (or a tag list in the file differs: the API sets tags only with a new
  version). A second push sends nothing.
  Nothing is sent while any file has a problem (exit 2). If a request fails
  midway, what was pushed and what was not is listed; running the push again
  sends the rest. Rate limits (429) are waited out as the server's Retry-After
  asks.`,
  examples: [
    'llmobs prompts push --dry-run',
    'llmobs prompts push --label staging -m "$GIT_COMMIT_MESSAGE"',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { isWrite }, { actionJson, describeAction, fileProblemsError, preparePlan, problemsOf, statusOf, SyncOptions }, { pushWrite, reportPartialPush }] = await Promise.all([import('zod'), import('../../core/prompts/sync-plan.js'), import('./sync-shared.js'), import('./push-write.js')]);
    const opts = parseOptions(SyncOptions.extend({ message: z.string().optional(), dryRun: z.boolean().default(false) }), { ...given, names: args[0] ?? [] });
    const prepared = await preparePlan(ctx, { names: opts.names, dir: opts.dir, labels: opts.label, message: opts.message });
    const { plan, client } = prepared;
    const problems = problemsOf(prepared);
    if (problems.length > 0) throw fileProblemsError(problems);
    const writes = plan.actions.filter(isWrite);
    const unchanged = plan.actions.length - writes.length;

    if (opts.dryRun) {
      if (ctx.globals.json) ctx.out.printJson({ dryRun: true, prompts: plan.actions.map(actionJson), serverOnly: plan.serverOnly });
      else ctx.out.table([{ header: 'STATUS' }, { header: 'NAME' }, { header: 'WHAT PUSH WOULD DO' }], writes.map((w) => [statusOf(w), w.name, describeAction(w)]));
      ctx.out.info(`Dry run: ${writes.length} to push, ${unchanged} unchanged; nothing was sent.`);
      return;
    }

    const done: PushResult[] = [];
    let current = '';
    client.onRetryWait = (wait) => {
      const seconds = Math.max(1, Math.round(wait.delayMs / 1000));
      ctx.out.info(`${wait.reason}: waiting ${seconds} s before retry ${wait.attempt}/${wait.retries} of '${current}' (${done.length}/${writes.length} pushed)`);
    };
    for (const [index, write] of writes.entries()) {
      current = write.name;
      try {
        const result = await pushWrite(ctx, client, write);
        done.push(result);
        ctx.out.info(`[${index + 1}/${writes.length}] ${write.name}: ${result.status} v${result.version}${result.labels.length ? ` (${result.labels.join(', ')})` : ''}`);
      } catch (error) {
        reportPartialPush(ctx, writes, done, unchanged, write, error);
        throw error;
      }
    }

    if (ctx.globals.json) {
      ctx.out.printJson({ dryRun: false, pushed: done, unchanged, failed: null, notPushed: [] });
    } else if (done.length > 0) {
      ctx.out.table([{ header: 'NAME' }, { header: 'DONE' }, { header: 'VERSION', align: 'right' }, { header: 'LABELS' }], done.map((r) => [r.name, r.status, r.version, r.labels.join(', ')]));
    }
    ctx.out.success(writes.length === 0 ? `Nothing to push: ${unchanged} prompt${unchanged === 1 ? '' : 's'} unchanged.` : `Pushed ${done.length} prompt${done.length === 1 ? '' : 's'}; ${unchanged} unchanged.`);
  },
});
