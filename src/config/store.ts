// Profiles on disk, through `conf`: one JSON file, mode 0600, in a 0700 directory, written atomically.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { ConfigError } from '../errors.js';
import { type ConfigFile, ConfigFileSchema, type Profile } from './schema.js';

export interface ProfileStore {
  readonly path: string;
  names(): string[];
  get(name: string): Profile | undefined;
  activeName(): string | undefined;
  /** Adds or replaces a profile; `makeActive` also selects it. */
  put(name: string, profile: Profile, makeActive: boolean): void;
  remove(name: string): void;
  setActive(name: string | undefined): void;
}

export function configDir(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CONFIG_DIR) return env.LLMOBS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'llmobs');
}

export function openProfileStore(options: {
  env: Record<string, string | undefined>;
  warn: (message: string) => void;
}): ProfileStore {
  const dir = configDir(options.env);
  if (!existsSync(dir)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
    } catch (error) {
      throw new ConfigError(`cannot create config directory ${dir}: ${(error as Error).message}`, {
        hint: 'Set LLMOBS_CONFIG_DIR to a writable directory.',
      });
    }
  }
  // Before parsing: a broken file that holds keys should still be flagged when others can read it.
  warnIfExposed(join(dir, 'config.json'), options.warn);
  let conf: Conf<ConfigFile>;
  try {
    conf = new Conf<ConfigFile>({
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (error) {
    throw invalidFile(join(dir, 'config.json'), error);
  }
  const store = new ConfProfileStore(conf);
  store.read(); // surfaces a broken file now, with its path, not deep inside a command
  return store;
}

class ConfProfileStore implements ProfileStore {
  constructor(private readonly conf: Conf<ConfigFile>) {}

  get path(): string {
    return this.conf.path;
  }

  read(): ConfigFile {
    let raw: unknown;
    try {
      raw = this.conf.store;
    } catch (error) {
      throw invalidFile(this.path, error);
    }
    const parsed = ConfigFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigError(
        `config file ${this.path} is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'unknown'}`,
        { hint: 'Fix the file by hand, or remove the broken profile with `llmobs profile remove`.' },
      );
    }
    return parsed.data;
  }

  private write(next: ConfigFile): void {
    try {
      this.conf.store = next;
    } catch (error) {
      throw new ConfigError(`cannot write config file ${this.path}: ${(error as Error).message}`);
    }
  }

  names(): string[] {
    return Object.keys(this.read().profiles).sort();
  }

  get(name: string): Profile | undefined {
    const profiles = this.read().profiles;
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  }

  activeName(): string | undefined {
    return this.read().activeProfile;
  }

  put(name: string, profile: Profile, makeActive: boolean): void {
    const current = this.read();
    const next: ConfigFile = { ...current, profiles: { ...current.profiles, [name]: stripUndefined(profile) } };
    if (makeActive) next.activeProfile = name;
    this.write(next);
  }

  remove(name: string): void {
    const current = this.read();
    const profiles = { ...current.profiles };
    delete profiles[name];
    const next: ConfigFile = { ...current, profiles };
    if (next.activeProfile === name) delete next.activeProfile;
    this.write(next);
  }

  setActive(name: string | undefined): void {
    const next: ConfigFile = { ...this.read() };
    if (name === undefined) delete next.activeProfile;
    else next.activeProfile = name;
    this.write(next);
  }
}

function invalidFile(path: string, error: unknown): ConfigError {
  const message = error instanceof Error ? error.message : String(error);
  return new ConfigError(`config file ${path} cannot be read: ${message}`, {
    hint: 'The file was left untouched. Fix it by hand (it is JSON), or move it away to start over.',
    cause: error,
  });
}

function warnIfExposed(path: string, warn: (message: string) => void): void {
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      warn(`config file ${path} is readable by other users (mode ${mode.toString(8)}); it holds secret keys. Run: chmod 600 ${path}`);
    }
  } catch {
    // No file yet: nothing to protect.
  }
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
}
