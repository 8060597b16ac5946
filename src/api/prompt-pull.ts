// What `prompts pull` reads: one version of each prompt, stored content (references unresolved).
import type { PullTarget } from '../core/prompts/pull-plan.js';
import { NotFoundError } from '../errors.js';
import type { ApiClient } from './client.js';
import { mapLimit } from './map-limit.js';
import { getPrompt, SYNC_READ_CONCURRENCY } from './prompts.js';
import type { Prompt } from './schemas/prompts.js';

/**
 * The versions asked for, in the order asked. With `collectMissing` (prompts named on the command
 * line), one that is not found is listed in `missing` and the rest are still read; otherwise a
 * missing one stops the read.
 */
export async function readPullVersions(
  client: ApiClient,
  targets: readonly PullTarget[],
  options: { collectMissing: boolean },
  onRead?: (done: number, total: number) => void,
): Promise<{ prompts: Prompt[]; missing: string[] }> {
  let done = 0;
  const missing: string[] = [];
  const read = await mapLimit(targets, SYNC_READ_CONCURRENCY, async (target): Promise<Prompt | undefined> => {
    try {
      return await getPrompt(client, target.name, target.selector, { resolve: false });
    } catch (error) {
      if (error instanceof NotFoundError && options.collectMissing) {
        missing.push(`${target.name}: ${error.message}`);
        return undefined;
      }
      throw error;
    } finally {
      onRead?.(++done, targets.length);
    }
  });
  return { prompts: read.filter((prompt) => prompt !== undefined), missing };
}
