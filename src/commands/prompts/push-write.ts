// Carrying out a push plan: the requests of one write, and what to say when a write fails midway.
import { addLabels, createPromptRetrying } from '../../api/prompts.js';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { SyncAction } from '../../core/prompts/sync-plan.js';
import { CliError } from '../../errors.js';
import { checkLabelsListed, createRetry } from './version-writes.js';
import { statusOf } from './sync-shared.js';

export interface PushResult {
  name: string;
  status: string;
  version: number;
  labels: string[];
}

/** Sends one write of the plan and checks that the server put the labels where asked. */
export async function pushWrite(ctx: Context, client: ApiClient, write: SyncAction): Promise<PushResult> {
  switch (write.kind) {
    case 'create':
    case 'update':
    case 'retag': {
      const created = await createPromptRetrying(client, write.body, createRetry(ctx));
      checkLabelsListed(created, write.body.labels, 'POST');
      const status = write.kind === 'create' ? 'created' : write.kind === 'update' ? 'new version' : 'new version (tags)';
      return { name: write.name, status, version: created.version, labels: write.body.labels };
    }
    case 'move-labels': {
      const labels = write.labels.map((move) => move.label);
      const updated = await addLabels(client, write.name, write.version, labels);
      checkLabelsListed(updated, labels, 'PATCH');
      return { name: write.name, status: 'labels moved', version: write.version, labels };
    }
    case 'unchanged':
      throw new Error('an unchanged prompt is not written');
  }
}

/** Says what was pushed and what was not; the error itself is reported by the CLI with its exit code. */
export function reportPartialPush(ctx: Context, writes: SyncAction[], done: PushResult[], unchanged: number, failed: SyncAction, error: unknown): void {
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
