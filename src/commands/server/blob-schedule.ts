// The exports `llmobs server` runs: `--blob-export DEST`, and the blob-storage integration set
// through its API (integration-schedule.ts). The server exports its own project on Langfuse's schedule.
// A run starts at once and then every minute; each writes the windows that are due (none until one
// interval after the last one ended) and says nothing otherwise. It reads the server through its
// own v2 API, as `export blob` reads any server. A failed run is said on stderr and tried again
// at the next tick, from the last manifest.
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import type { RunningServer } from '../../server/index.js';
import type { BlobSetup } from '../export/blob-setup.js';
import { runBlobExport } from '../export/blob-run.js';
import { runIntegrationIfDue } from './integration-schedule.js';

const EVERY_MS = 60_000;

export interface BlobSchedule {
  /** Stops the schedule once the run in progress (if any) has ended. */
  stop(): Promise<void>;
}

export async function startBlobSchedule(ctx: Context, server: RunningServer, setup: BlobSetup | undefined): Promise<BlobSchedule> {
  const client: ApiClient = await ctx.apiFor({
    profile: undefined,
    baseUrl: server.url,
    baseUrlSource: { kind: 'flag', name: '--blob-export' },
    auth: { type: 'basic', publicKey: server.keys.publicKey, secretKey: server.keys.secretKey },
    keySources: {},
    credentialsFrom: 'the local server',
    notes: [],
  });
  const target = setup ? await setup.open(true) : undefined;
  const every = Number(ctx.env.LLMOBS_BLOB_EXPORT_EVERY_MS) > 0 ? Number(ctx.env.LLMOBS_BLOB_EXPORT_EVERY_MS) : EVERY_MS;
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = (async () => {
      await runIntegrationIfDue(ctx, client, server).catch((error: unknown) => ctx.out.warn(`blob storage integration: ${(error as Error).message}`));
      if (!setup || !target || stopped) return;
      try {
        await target.check();
        await runBlobExport(ctx, client, target, { ...setup.options, quiet: true });
      } catch (error) {
        if (stopped) {
          ctx.out.info(`blob export to ${setup!.dest} stopped; a window it had not finished is written again at the next start`);
          return;
        }
        const message = error instanceof CliError ? `${error.message}${error.hint ? ` (${error.hint})` : ''}` : (error as Error).message;
        ctx.out.warn(`blob export to ${setup!.dest}: ${message}; tried again in a minute`);
      }
    })().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(tick, every);
    });
  };
  const windows = setup && { every_20_minutes: '20-minute', hourly: 'hourly', daily: 'daily', weekly: 'weekly' }[setup.options.interval];
  if (setup) ctx.out.info(`Exporting to ${setup.dest} in ${windows} windows (Langfuse's blob storage layout, ${setup.options.type})`);
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await target?.close();
    },
  };
}
