// Runs the built binary the way a user does: a separate process, temp HOME and config, no TTY.
import { join } from 'node:path';
import { execa, type Options } from 'execa';
import { isolatedEnv } from './cli.js';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'llmobs.js');

export interface BinResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export async function llmobs(args: string[], options: { env?: Record<string, string | undefined>; input?: string; timeout?: number } = {}): Promise<BinResult> {
  const execaOptions: Options = {
    env: options.env ?? isolatedEnv(),
    extendEnv: false,
    reject: false,
    timeout: options.timeout ?? 30_000,
    stripFinalNewline: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
  };
  const result = await execa(process.execPath, [BIN, ...args], execaOptions);
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** An environment whose active profile points at a running local server. */
export async function profileEnv(server: { url: string; keys: { publicKey: string; secretKey: string } }, name = 'local') {
  const env = isolatedEnv();
  const added = await llmobs(['profile', 'add', name, '--base-url', server.url, '--public-key', server.keys.publicKey, '--secret-key-stdin'], {
    env,
    input: server.keys.secretKey,
  });
  if (added.exitCode !== 0) throw new Error(`profile add failed: ${added.stderr}`);
  return env;
}
