// `llmobs server` as a separate process, the way a user or a container runs it.
import { execa, type ResultPromise } from 'execa';
import { BIN } from './bin.js';

export interface Started {
  url: string;
  publicKey: string;
  secretKey: string;
  created: boolean;
  dataDir: string | null;
}

export interface ServerProcess {
  child: ResultPromise;
  /** The start line (`--json`), or a rejection with the exit code and stderr when it exits first. */
  ready: Promise<Started>;
}

/**
 * Starts the built binary with `--port 0 --json`. `prefix` runs it under another command
 * (e.g. `prlimit --fsize=...`), which must exec its arguments.
 */
export function startServerProcess(args: string[], env: Record<string, string | undefined>, prefix: string[] = []): ServerProcess {
  const [command, ...rest] = [...prefix, process.execPath, BIN, 'server', '--port', '0', '--json', ...args];
  const child = execa(command!, rest, { env, extendEnv: false, reject: false });
  const ready = new Promise<Started>((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n') && line) resolve(JSON.parse(line) as Started);
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  ready.catch(() => {});
  return { child, ready };
}

export function basicHeader(started: Started): string {
  return `Basic ${Buffer.from(`${started.publicKey}:${started.secretKey}`).toString('base64')}`;
}
