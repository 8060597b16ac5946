// llmobs server: a local Langfuse-compatible API server; with --profile NAME it also saves a profile
// for it and makes it active.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { RunningServer } from '../server/index.js';
import type { LocalProfile } from '../server/local-profile.js';
import { defineCommand } from './define.js';
import { BLOB_FLAGS } from './export/blob-flags.js';

export default defineCommand({
  name: 'server',
  summary: 'run a local Langfuse-compatible API server (for trying llmobs, tests and CI rehearsals); with --profile NAME it also saves a profile for it and makes it active',
  flags: [
    { flags: '--port <port>', help: 'port to listen on (0 picks a free port)', default: '3000' },
    { flags: '--host <host>', help: 'address to listen on', default: '127.0.0.1' },
    { flags: '--data-dir <dir>', help: 'where data and keys are kept (default: $XDG_DATA_HOME/llmobs/server)' },
    { flags: '--ephemeral', help: 'keep everything in memory and forget it on exit' },
    { flags: '--bearer-secret-key', help: 'also accept "Authorization: Bearer <secret key>" (the service specification\'s scheme; Langfuse answers 401)' },
    {
      flags: '--write-mode <mode>',
      help: 'the Langfuse v4 write mode to answer as: events_only (Langfuse Cloud and self-hosted v4: no v3 read routes, traces and observations over OTLP only), dual (v3 and v4 routes), legacy (a v3 deployment)',
      default: 'events_only',
    },
    { flags: '--ui-port <port>', help: 'port of the web UI (0 picks a free port); open the URL printed at start', default: '0' },
    { flags: '--no-ui', help: 'serve the API only, no web UI' },
    { flags: '--blob-export <dest>', help: 'export the project on a schedule to a folder or s3://BUCKET/PREFIX/, as export blob does (its options below)' },
    ...BLOB_FLAGS,
  ],
  examples: [
    'llmobs server',
    '# Save a profile "local" for it and make it the active one',
    'llmobs server --profile local',
    'llmobs server --port 0 --ephemeral --json',
    'llmobs server --data-dir ./lf-data --host 0.0.0.0 --port 3100',
    '# Rehearse a client that still reads GET /api/public/traces or sends traces to /api/public/ingestion',
    'llmobs server --write-mode dual',
    '# The web UI on a fixed port (open the printed URL: it logs the browser in once)',
    'llmobs server --ui-port 3001',
    '# Keep a folder in step with the project, hourly, in Langfuse\'s blob export layout',
    'llmobs server --blob-export ./lake --interval hourly',
    '# A new one-time link to the web UI of the running server (for another browser)',
    'llmobs server link',
  ],
  subcommands: async () => [(await import('./server/link.js')).default],
  async run(ctx, { opts: raw }) {
    const { blobExport, format, gzip, interval, from, fields, tables, endpoint, region, forcePathStyle, ...serverFlags } = raw as Record<string, unknown>;
    const blobGiven = { format, gzip, interval, from, fields, tables, endpoint, region, forcePathStyle };
    if (blobExport === undefined && Object.entries(blobGiven).some(([key, value]) => value !== undefined && !(key === 'gzip' && value === true) && !(key === 'forcePathStyle' && value === false))) {
      throw new UsageError('--format, --interval, --from, --fields, --tables, --endpoint, --region, --force-path-style and --no-gzip go with --blob-export DEST');
    }
    // Checked before the server starts: a wrong option stops it with nothing listening.
    const blob = blobExport === undefined ? undefined : await (await import('./export/blob-setup.js')).blobSetup(ctx, blobGiven, blobExport);
    const [{ z }, { parseOptions }, local, { WRITE_MODES }] = await Promise.all([import('zod'), import('./options.js'), import('../server/local-profile.js'), import('../api/write-mode.js')]);
    const opts = parseOptions(
      z.object({
        port: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535),
        host: z.string().min(1),
        dataDir: z.string().min(1).optional(),
        ephemeral: z.boolean().default(false),
        bearerSecretKey: z.boolean().default(false),
        writeMode: z.enum(WRITE_MODES, { message: `must be one of ${WRITE_MODES.join(', ')}` }),
        uiPort: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535),
        ui: z.boolean().default(true),
      }),
      serverFlags,
    );
    // `llmobs server --profile NAME` saves a profile for this server and makes it active.
    const save = ctx.globals.profile;
    const store = await ctx.profiles();
    if (save !== undefined) local.checkProfileToSave(store, save);

    const [{ startServer }, { migrationProgress }] = await Promise.all([import('../server/index.js'), import('./server/migration-progress.js')]);
    const server = await startServer({
      port: opts.port,
      host: opts.host,
      dataDir: opts.ephemeral ? undefined : local.dataDir(ctx.cwd, opts.dataDir, ctx.env),
      ephemeral: opts.ephemeral,
      bearerSecretKey: opts.bearerSecretKey,
      writeMode: opts.writeMode,
      ui: opts.ui ? { port: opts.uiPort } : undefined,
      log: (line) => ctx.out.info(line),
      migrationProgress: migrationProgress((line) => ctx.out.info(line)),
    });
    // Listening for a stop before anything is printed: a script that stops the server as soon as it
    // reads the start line must get a clean close, not a kill.
    const stopped = new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    const url = local.clientUrl(server.url);
    const profile = local.settleProfile(store, save, url, server.keys);
    printStarted(ctx, server, url, profile, local.otherAddresses(server.url, server.host));
    let schedule;
    try {
      schedule = await (await import('./server/blob-schedule.js')).startBlobSchedule(ctx, server, blob);
    } catch (error) {
      await server.close();
      throw error;
    }
    await stopped;
    // The export reads the server: it ends its page first, and its window stays without a manifest.
    await schedule.stop();
    await server.close();
    ctx.out.info('server stopped');
  },
});

/** Where the server listens, its project and keys, and how to point a profile at it. */
function printStarted(ctx: Context, server: RunningServer, url: string, profile: LocalProfile, otherAddresses: string[]): void {
  const { keys } = server;
  const { name, command } = profile;
  if (ctx.globals.json) {
    ctx.out.printJsonLine({
      url,
      listening: server.url,
      project: server.project,
      publicKey: keys.publicKey,
      secretKey: keys.secretKey,
      organizationPublicKey: server.organizationKeys.publicKey,
      organizationSecretKey: server.organizationKeys.secretKey,
      dataDir: server.dataDir ?? null,
      created: server.created,
      writeMode: server.writeMode,
      uiUrl: server.uiUrl,
      profile: { name, saved: profile.saved, active: profile.active, pointsHere: profile.pointsHere },
      profileCommand: command,
      otherAddresses,
    });
    return;
  }
  ctx.out.line(`llmobs server listening on ${server.url} (Langfuse v4 write mode: ${server.writeMode})`);
  ctx.out.keyValues([
    ['  URL', url === server.url ? url : `${url}  (on this machine; it listens on every interface)`],
    ...otherAddresses.map((address, i) => [i === 0 ? '  From others' : '', `${address}  (if the firewall lets them in)`] as const),
    ...(server.uiUrl ? [['  Web UI', server.uiUrl] as const] : []),
    ['  Project', `${server.project.name} (${server.project.id})`],
    ['  Public key', keys.publicKey],
    ['  Secret key', keys.secretKey],
    ['  Organization key', `${server.organizationKeys.publicKey} / ${server.organizationKeys.secretKey}  (blob storage integration routes)`],
    ['  Data', server.dataDir ? `${server.dataDir}${server.created ? ' (new)' : ''}` : 'in memory, gone on exit (--ephemeral)'],
  ]);
  ctx.out.line();
  if (profile.saved) {
    ctx.out.line(`Profile "${name}" points at it and is active: llmobs commands now use this server.`);
  } else if (command === null) {
    ctx.out.line(`Profile "${name}" already points at it and is active.`);
  } else if (profile.pointsHere) {
    ctx.out.line(`Profile "${name}" already points at it; make it the active one:`);
    ctx.out.line(`  ${command}`);
  } else {
    const replacing = profile.replaces ? ` (this replaces your profile "${name}", which points at ${profile.replaces.baseUrl ?? profile.replaces.region})` : '';
    ctx.out.line(`Point a profile at it and make it the active one${replacing}:`);
    ctx.out.line(`  ${command}`);
    ctx.out.line(`Or start the server with --profile ${name} to do that for you (another name: --profile NAME).`);
  }
  ctx.out.line();
  ctx.out.info('Press Ctrl-C to stop.');
}
