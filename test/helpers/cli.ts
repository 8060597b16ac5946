// Runs the CLI in-process with fake streams and environment (unit tests of commands).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { run } from '../../src/cli.js';
import type { Prompter } from '../../src/prompter.js';
import { Capture, stdinFrom } from './streams.js';

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  tty?: boolean;
  /** Terminal width of stdout when `tty` (default 120). */
  columns?: number;
  dispatcher?: Dispatcher;
  prompter?: Prompter;
  cwd?: string;
  sleeps?: number[];
}

export interface InProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const created: string[] = [];

/** A fresh temp directory, removed after the test file (see test/setup.ts). */
export function tempDir(prefix = 'llmobs-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A clean environment: config in a temp dir, no colour forcing, no Langfuse variables. */
export function isolatedEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const home = tempDir('llmobs-home-');
  return { HOME: home, LLMOBS_CONFIG_DIR: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), PATH: process.env.PATH, ...extra };
}

export async function runInProcess(argv: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const stdout = new Capture(options.tty ?? false);
  if (options.columns !== undefined) stdout.columns = options.columns;
  const stderr = new Capture(options.tty ?? false);
  const exitCode = await run(argv, {
    io: { stdout, stderr, stdin: stdinFrom(options.stdin, options.tty ?? false) },
    env: options.env ?? isolatedEnv(),
    cwd: options.cwd ?? process.cwd(),
    dispatcher: options.dispatcher,
    prompter: options.prompter,
    sleep: async (ms) => {
      options.sleeps?.push(ms);
    },
    random: () => 0.5,
  });
  return { exitCode, stdout: stdout.text, stderr: stderr.text };
}
