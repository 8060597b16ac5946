import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { Context } from '../context.js';
import type { ActionInput } from './action.js';
import { parseOptions } from './options.js';

const Options = z.object({
  port: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535),
  host: z.string().min(1),
  dataDir: z.string().min(1).optional(),
  ephemeral: z.boolean().default(false),
  bearerSecretKey: z.boolean().default(false),
});

export function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'llmobs', 'server');
}

export default async function action(ctx: Context, { opts: raw }: ActionInput): Promise<void> {
  const opts = parseOptions(Options, raw);
  const { startServer } = await import('../server/index.js');
  const dataDir = opts.ephemeral ? undefined : resolve(ctx.cwd, opts.dataDir ?? defaultDataDir(ctx.env));
  const server = await startServer({
    port: opts.port,
    host: opts.host,
    dataDir,
    ephemeral: opts.ephemeral,
    bearerSecretKey: opts.bearerSecretKey,
    log: (line) => ctx.out.info(line),
  });
  const profileCommand = `printf %s '${server.keys.secretKey}' | llmobs profile add local --base-url ${server.url} --public-key ${server.keys.publicKey} --secret-key-stdin`;
  if (ctx.globals.json) {
    ctx.out.printJsonLine({
      url: server.url,
      project: server.project,
      publicKey: server.keys.publicKey,
      secretKey: server.keys.secretKey,
      dataDir: server.dataDir ?? null,
      created: server.created,
      profileCommand,
    });
  } else {
    ctx.out.line(`llmobs server listening on ${server.url}`);
    ctx.out.keyValues([
      ['  Project', `${server.project.name} (${server.project.id})`],
      ['  Public key', server.keys.publicKey],
      ['  Secret key', server.keys.secretKey],
      ['  Data', server.dataDir ? `${server.dataDir}${server.created ? ' (new)' : ''}` : 'in memory, gone on exit (--ephemeral)'],
    ]);
    ctx.out.line();
    ctx.out.line('Point a profile at it:');
    ctx.out.line(`  ${profileCommand}`);
    ctx.out.line();
    ctx.out.info('Press Ctrl-C to stop.');
  }
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await server.close();
  ctx.out.info('server stopped');
}
