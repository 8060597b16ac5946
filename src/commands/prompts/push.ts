// llmobs prompts push: make the server match a directory of prompt files: a new version only where the content differs, labels moved, referenced prompts first.
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { CreatePromptBody } from '../../core/prompts/create-body.js';
import type { Prompt } from '../../api/schemas/prompts.js';
import type { SyncAction } from '../../core/prompts/sync-plan.js';
import { ApiError, CliError } from '../../errors.js';
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
    const [{ z }, { addLabels, createPrompt }, { isWrite }, { actionJson, describeAction, fileProblemsError, preparePlan, problemsOf, statusOf, SyncOptions }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/sync-plan.js'), import('./sync-shared.js')]);
    const Options = SyncOptions.extend({
      message: z.string().optional(),
      dryRun: z.boolean().default(false),
    });

    interface PushResult {
      name: string;
      status: string;
      version: number;
      labels: string[];
    }

    async function execute(ctx: Context, client: ApiClient, write: SyncAction): Promise<PushResult> {
      switch (write.kind) {
        case 'create':
        case 'update':
        case 'retag': {
          const created = await create(ctx, client, write.body);
          checkLabels(created, write.body.labels, 'POST');
          const status = write.kind === 'create' ? 'created' : write.kind === 'update' ? 'new version' : 'new version (tags)';
          return { name: write.name, status, version: created.version, labels: write.body.labels };
        }
        case 'move-labels': {
          const labels = write.labels.map((move) => move.label);
          const updated = await addLabels(client, write.name, write.version, labels);
          checkLabels(updated, labels, 'PATCH');
          return { name: write.name, status: 'labels moved', version: write.version, labels };
        }
        case 'unchanged':
          throw new Error('an unchanged prompt is not written');
      }
    }

    /**
     * POST is never repeated by the client (a repeat could create a second version), except after
     * the server's "concurrent creates collided" answer, where nothing was created.
     */
    async function create(ctx: Context, client: ApiClient, body: CreatePromptBody): Promise<Prompt> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await createPrompt(client, body);
        } catch (error) {
          const conflict = error instanceof ApiError && error.status === 400 && /unique constraint|concurrent prompt creation/i.test(error.serverMessage ?? '');
          if (conflict && attempt < ctx.globals.retries) {
            await ctx.sleep(Math.round(250 * 2 ** attempt * (0.5 + ctx.random() / 2)));
            continue;
          }
          throw error;
        }
      }
    }

    function checkLabels(prompt: Prompt, labels: readonly string[], method: string): void {
      const missing = labels.filter((label) => !prompt.labels.includes(label));
      if (missing.length > 0) {
        throw new ApiError(`the server accepted the change but version ${prompt.version} of '${prompt.name}' does not list ${missing.join(', ')}`, {
          status: 200,
          method,
          path: `/api/public/v2/prompts/${encodeURIComponent(prompt.name)}`,
          hint: 'Check with: llmobs labels list <name>',
        });
      }
    }

    /** Says what was pushed and what was not; the error itself is reported by the CLI with its exit code. */
    function reportPartial(ctx: Context, writes: SyncAction[], done: PushResult[], unchanged: number, failed: SyncAction, error: unknown): void {
      const notPushed = writes.slice(done.length + 1).map((write) => write.name);
      const reason = error instanceof Error ? error.message : String(error);
      if (ctx.globals.json) {
        ctx.out.printJson({ dryRun: false, pushed: done, unchanged, failed: { name: failed.name, status: statusOf(failed), error: reason }, notPushed });
      }
      const list = (names: string[]) => (names.length > 10 ? `${names.slice(0, 10).join(', ')} and ${names.length - 10} more` : names.join(', '));
      ctx.out.warn(
        `push stopped at '${failed.name}' (${statusOf(failed)}). Pushed ${done.length} of ${writes.length}${done.length ? `: ${list(done.map((r) => r.name))}` : ''}. ` +
          `Not pushed: ${list([failed.name, ...notPushed])}.`,
      );
      if (error instanceof CliError) {
        const rerun = 'Run the same push again to send the rest: what was pushed is unchanged now and is not sent again.';
        error.hint = error.hint ? `${error.hint}\n${rerun}` : rerun;
      }
    }

    const opts = parseOptions(Options, { ...given, names: args[0] ?? [] });
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
        const result = await execute(ctx, client, write);
        done.push(result);
        ctx.out.info(`[${index + 1}/${writes.length}] ${write.name}: ${result.status} v${result.version}${result.labels.length ? ` (${result.labels.join(', ')})` : ''}`);
      } catch (error) {
        reportPartial(ctx, writes, done, unchanged, write, error);
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
