// Everything a command touches from the outside world comes from here, so tests can swap it.
// Heavy pieces (output styling, config store, HTTP client, prompts) load on first use.
import type { Dispatcher } from 'undici';
import type { ApiClient } from './api/client.js';
import type { ProfileStore } from './config/store.js';
import type { ResolvedConfig } from './config/resolve.js';
import type { Output } from './output/output.js';
import type { Prompter } from './prompter.js';
import { redactKeyShapes, secretForms } from './config/mask.js';
import { UsageError } from './errors.js';
import { stdio } from './io/stdio.js';
import type { GlobalOptions, Io } from './types.js';

export const DEFAULT_GLOBALS: GlobalOptions = {
  json: false,
  verbose: false,
  color: true,
  timeout: 30_000,
  retries: 3,
  maxPages: 1000,
};

export interface ContextDeps {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => Date;
  /** undici dispatcher for every request (tests pass a MockAgent). */
  dispatcher?: Dispatcher | undefined;
  sleep: (ms: number) => Promise<void>;
  /** Lets the process end although sleeps are pending (a command stopped by Ctrl-C mid-wait). */
  releaseSleeps?: () => void;
  random: () => number;
  prompter?: Prompter | undefined;
}

export function defaultDeps(): ContextDeps {
  const sleeping = new Set<NodeJS.Timeout>();
  return {
    // Getters: Node builds each stdio stream on first use (stdin as a pipe loads the net stack),
    // and most runs never read stdin or write to stderr. Piped stdout and stderr are written
    // without Node's streams (io/stdio.ts).
    io: {
      get stdout() {
        return stdio(1);
      },
      get stderr() {
        return stdio(2);
      },
      get stdin() {
        return process.stdin;
      },
    },
    env: process.env,
    cwd: process.cwd(),
    now: () => new Date(),
    sleep: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          sleeping.delete(timer);
          resolve();
        }, ms);
        sleeping.add(timer);
      }),
    releaseSleeps: () => {
      for (const timer of sleeping) timer.unref();
    },
    random: Math.random,
  };
}

export class Context {
  readonly io: Io;
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  readonly now: () => Date;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  globals: GlobalOptions = { ...DEFAULT_GLOBALS };
  /** A command may set a non-zero exit code without throwing (e.g. some batch lines failed). */
  exitCode = 0;

  private readonly deps: ContextDeps;
  private outputInstance: Output | undefined;
  private readonly secrets = new Set<string>();
  private readonly secretValues = new Set<string>();
  private secretList: string[] = [];
  private storePromise: Promise<ProfileStore> | undefined;
  private clients: ApiClient[] = [];
  private prompterInstance: Prompter | undefined;

  constructor(deps: ContextDeps) {
    this.deps = deps;
    this.io = deps.io;
    this.env = deps.env;
    this.cwd = deps.cwd;
    this.now = deps.now;
    this.sleep = deps.sleep;
    this.random = deps.random;
    this.prompterInstance = deps.prompter;
  }

  /**
   * Loads the output module; the CLI calls this before any command runs. With --jq it also loads
   * jq and compiles the filter, so a bad filter stops the command before anything is sent.
   */
  async prepare(): Promise<void> {
    if (this.outputInstance) return;
    const [{ Output, loadTables, loadColors }, { colorLevel }] = await Promise.all([import('./output/output.js'), import('./output/color.js')]);
    if (this.io.stdout.isTTY === true) await loadTables();
    const coloured = (isTTY: boolean | undefined) => colorLevel({ env: this.env, isTTY: isTTY === true, noColorFlag: !this.globals.color }) > 0;
    if (coloured(this.io.stdout.isTTY) || coloured(this.io.stderr.isTTY)) await loadColors();
    const output = new Output({
      stdout: this.io.stdout,
      stderr: this.io.stderr,
      env: this.env,
      json: this.globals.json,
      noColor: !this.globals.color,
      redact: (text) => this.redact(text),
      redactMessage: (text) => this.redactMessage(text),
      redacting: () => this.secrets.size > 0,
      csv: this.globals.csv,
      headers: this.globals.headers,
    });
    this.outputInstance = output;
    if (this.globals.csv && this.globals.jq !== undefined) throw new UsageError('use either --csv or --jq, not both');
    if (this.globals.csv && this.globals.json) throw new UsageError('use either --csv or --json, not both');
    if (this.globals.jq !== undefined) {
      const { loadJqFilter } = await import('./output/jq.js');
      output.useFilter(await loadJqFilter(this.globals.jq, { pretty: output.isTTY }));
    }
  }

  get out(): Output {
    if (!this.outputInstance) throw new Error('output used before Context.prepare()');
    return this.outputInstance;
  }

  get verbose(): boolean {
    return this.globals.verbose || isTruthy(this.env.LLMOBS_DEBUG);
  }

  /** Trace line on stderr, only with --verbose or LLMOBS_DEBUG=1. */
  trace(line: string): void {
    if (this.verbose) this.io.stderr.write(this.redactMessage(`${line}\n`));
  }

  /** Registers a value that must never be printed, in any encoding (see `secretForms`). */
  addSecret(value: string | undefined): void {
    if (!value || value.length < 4 || this.secretValues.has(value)) return;
    this.secretValues.add(value);
    for (const form of secretForms(value)) this.secrets.add(form);
    this.secretList = [...this.secrets].sort((a, b) => b.length - a.length);
  }

  /** Data on stdout: the registered secrets removed (a command may print a key it was asked for). */
  redact(text: string): string {
    let result = text;
    for (const secret of this.secretList) {
      if (result.includes(secret)) result = result.split(secret).join('[redacted]');
    }
    return result;
  }

  /** Messages, traces and errors: also anything shaped like a secret key, known or not. */
  redactMessage(text: string): string {
    return this.redact(redactKeyShapes(text));
  }

  /** True when we may ask questions: both stdin and stderr are terminals. */
  get interactive(): boolean {
    return this.io.stdin.isTTY === true && this.io.stderr.isTTY === true;
  }

  async prompter(): Promise<Prompter> {
    if (!this.prompterInstance) {
      const { InquirerPrompter } = await import('./prompter.js');
      this.prompterInstance = new InquirerPrompter(this.io);
    }
    return this.prompterInstance;
  }

  profiles(): Promise<ProfileStore> {
    this.storePromise ??= import('./config/store.js').then(({ openProfileStore }) => {
      const store = openProfileStore({ env: this.env, warn: (message) => this.out.warn(message) });
      // Every stored key is a secret from now on, whichever profile the command ends up using.
      for (const name of store.names()) {
        const profile = store.get(name);
        this.addSecret(profile?.secretKey);
        this.addSecret(profile?.apiKey);
      }
      return store;
    });
    return this.storePromise;
  }

  /** Resolves server and credentials (flags > environment > active profile). */
  async resolveConfig(options: { auth: boolean; profile?: string; profileFlag?: string; wholeProfile?: boolean } = { auth: true }): Promise<ResolvedConfig> {
    const { resolveConfig, SECRET_VARIABLES } = await import('./config/resolve.js');
    // Before anything can fail: an error about a bad URL must not show a key from the environment.
    for (const name of SECRET_VARIABLES) this.addSecret(this.env[name]);
    // wholeProfile: the profile's own server, even when --base-url was given (it then names
    // another side, e.g. the source of a copy to this profile).
    const globals = options.profile ? { ...this.globals, profile: options.profile, ...(options.wholeProfile ? { baseUrl: undefined } : {}) } : this.globals;
    const resolved = resolveConfig({
      globals,
      profileFlag: options.profile ? options.profileFlag : undefined,
      env: this.env,
      store: await this.profiles(),
      requireAuth: options.auth,
    });
    if (resolved.auth.type === 'basic') this.addSecret(resolved.auth.secretKey);
    if (resolved.auth.type === 'bearer') this.addSecret(resolved.auth.apiKey);
    return resolved;
  }

  /** An API client for the resolved server; `auth: false` for endpoints such as health. */
  async api(options: { auth: boolean } = { auth: true }): Promise<ApiClient> {
    const resolved = await this.resolveConfig(options);
    return this.apiFor(resolved);
  }

  async apiFor(resolved: ResolvedConfig): Promise<ApiClient> {
    const { ApiClient, warnIfInsecure, readLimits } = await import('./api/client.js');
    const { VERSION } = await import('./version.js');
    warnIfInsecure(resolved, (message) => this.out.warn(message));
    const client = new ApiClient({
      config: resolved,
      timeoutMs: this.globals.timeout,
      limits: readLimits(this.env, this.globals.maxPages),
      retries: this.globals.retries,
      retryBaseMs: positiveInt(this.env.LLMOBS_RETRY_BASE_MS) ?? 500,
      userAgent: `llmobs/${VERSION}`,
      dispatcher: this.deps.dispatcher,
      env: this.env,
      trace: this.verbose ? (line) => this.trace(line) : undefined,
      sleep: this.sleep,
      random: this.random,
      now: this.now,
    });
    this.clients.push(client);
    return client;
  }

  async dispose(): Promise<void> {
    this.deps.releaseSleeps?.();
    const clients = this.clients;
    this.clients = [];
    await Promise.all(clients.map((client) => client.close()));
  }
}

export function globalsFrom(opts: Record<string, unknown>): GlobalOptions {
  return {
    profile: typeof opts.profile === 'string' ? opts.profile : undefined,
    baseUrl: typeof opts.baseUrl === 'string' ? opts.baseUrl : undefined,
    verbose: opts.verbose === true,
    color: opts.color !== false,
    timeout: typeof opts.timeout === 'number' ? opts.timeout : DEFAULT_GLOBALS.timeout,
    retries: typeof opts.retries === 'number' ? opts.retries : DEFAULT_GLOBALS.retries,
    maxPages: typeof opts.maxPages === 'number' ? opts.maxPages : DEFAULT_GLOBALS.maxPages,
    ...outputGlobals(opts),
  };
}

/** --jq implies --json: the filter needs JSON to work on, and errors then come as JSON too. */
export function outputGlobals(opts: Record<string, unknown>): Pick<GlobalOptions, 'json' | 'jq' | 'csv' | 'headers'> {
  const jq = typeof opts.jq === 'string' ? opts.jq : undefined;
  return {
    json: opts.json === true || jq !== undefined,
    jq,
    csv: opts.csv === true,
    headers: typeof opts.headers === 'boolean' ? opts.headers : undefined,
  };
}

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}
