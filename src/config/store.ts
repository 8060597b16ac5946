// Profiles on disk: one JSON file (mode 0600) in a 0700 directory. Every change is a
// read-modify-write under a lock file, written to a temporary file, flushed and renamed over
// the old one, so concurrent `profile add` commands keep every profile and a crash never leaves
// half a file. The file format is the one `conf` wrote before (a JSON object; any indentation).
import { lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors.js';
import { acquireLock, LockHeldError, NotRegularError, readRegularFileSync, writeFileAtomic } from '../io/atomic.js';
import { configDir } from './dir.js';
import { type ConfigFile, parseConfigFile, type Profile } from './schema.js';

export interface ProfileStore {
  readonly path: string;
  names(): string[];
  get(name: string): Profile | undefined;
  activeName(): string | undefined;
  /** Adds or replaces a profile; `makeActive` also selects it. */
  put(name: string, profile: Profile, makeActive: boolean): void;
  /**
   * Adds a profile only if no profile of that name exists, checked under the lock (so two
   * concurrent adds of one name cannot both succeed). Returns false when it exists.
   * `makeActive`: select it; `'if-none'`: select it only when no profile is active.
   */
  add(name: string, profile: Profile, makeActive: boolean | 'if-none'): boolean;
  remove(name: string): void;
  setActive(name: string | undefined): void;
}

export { configDir };

export interface StoreOptions {
  env: Record<string, string | undefined>;
  warn: (message: string) => void;
  /** How long a write waits for another command's lock before failing (ms). */
  lockTimeoutMs?: number;
}

export function openProfileStore(options: StoreOptions): ProfileStore {
  const dir = configDir(options.env);
  let created = false;
  try {
    lstatSync(dir);
  } catch {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      created = true;
    } catch (error) {
      throw new ConfigError(`cannot create config directory ${dir}: ${(error as Error).message}`, {
        hint: 'Set LLMOBS_CONFIG_DIR to a writable directory.',
      });
    }
  }
  const store = new FileProfileStore(dir, options.lockTimeoutMs ?? 10_000);
  // Checked before parsing: a broken file that holds keys should still be flagged.
  if (!created) for (const warning of store.exposure()) options.warn(warning);
  store.read(); // surfaces a broken file now, with its path, not deep inside a command
  return store;
}

const GROUP_OTHER_RW = 0o066;
const GROUP_OTHER_W = 0o022;
const STICKY = 0o1000;

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(3, '0');

class FileProfileStore implements ProfileStore {
  readonly path: string;
  private cached: { raw: Record<string, unknown>; parsed: ConfigFile } | undefined;

  constructor(
    private readonly dir: string,
    private readonly lockTimeoutMs: number,
  ) {
    this.path = join(dir, 'config.json');
  }

  /** Warnings about a directory or file that other users can read or write. */
  exposure(): string[] {
    const warnings: string[] = [];
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    try {
      const st = statSync(this.dir);
      if ((st.mode & GROUP_OTHER_RW) !== 0) {
        warnings.push(`config directory ${this.dir} can be ${(st.mode & GROUP_OTHER_W) !== 0 ? 'written' : 'read'} by other users (mode ${octal(st.mode)}); it holds secret keys. Run: chmod 700 ${this.dir}`);
      }
      if (uid !== undefined && st.uid !== uid) warnings.push(`config directory ${this.dir} belongs to another user (uid ${st.uid})`);
    } catch {
      // Reported when it is used.
    }
    try {
      const link = lstatSync(this.path);
      if (link.isSymbolicLink()) {
        const target = statSync(this.path);
        if ((target.mode & GROUP_OTHER_RW) !== 0) {
          warnings.push(`config file ${this.path} (a link to ${realpathSync(this.path)}) is readable or writable by other users (mode ${octal(target.mode)}); it holds secret keys`);
        }
      } else if ((link.mode & GROUP_OTHER_RW) !== 0) {
        warnings.push(`config file ${this.path} is ${(link.mode & GROUP_OTHER_W) !== 0 ? 'writable' : 'readable'} by other users (mode ${octal(link.mode)}); it holds secret keys. Run: chmod 600 ${this.path}`);
      }
      if (uid !== undefined && link.uid !== uid && !link.isSymbolicLink()) warnings.push(`config file ${this.path} belongs to another user (uid ${link.uid})`);
    } catch {
      // No file yet: nothing to protect.
    }
    return warnings;
  }

  /** The file's JSON (empty when there is no file), without schema checks. */
  private readRaw(): Record<string, unknown> {
    let text: string;
    try {
      text = readRegularFileSync(this.path, MAX_CONFIG_BYTES, 'a profile file');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      if (error instanceof NotRegularError) {
        throw new ConfigError(`config file ${this.path} cannot be read: ${error.message}`, {
          hint: 'llmobs did not write it (another user may have planted it): move it away, or set LLMOBS_CONFIG_DIR to a private directory.',
        });
      }
      throw new ConfigError(`config file ${this.path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
        hint: 'Check its permissions (it should be yours, mode 600).',
      });
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return {};
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw invalidJson(this.path, text, error);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new ConfigError(`config file ${this.path} is invalid: it must hold a JSON object`, { hint: FIX_HINT });
    }
    return json as Record<string, unknown>;
  }

  private validate(raw: Record<string, unknown>): ConfigFile {
    const parsed = parseConfigFile(raw);
    if (!parsed.ok) {
      throw new ConfigError(`config file ${this.path} is invalid at ${parsed.path.join('.') || '(root)'}: ${parsed.message}`, {
        hint: 'Fix the file by hand, or remove the broken profile with `llmobs profile remove`.',
      });
    }
    return parsed.value;
  }

  read(): ConfigFile {
    if (!this.cached) {
      const raw = this.readRaw();
      this.cached = { raw, parsed: this.validate(raw) };
    }
    return this.cached.parsed;
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
    this.update((raw) => {
      profilesOf(raw)[name] = stripUndefined(profile);
      if (makeActive) raw.activeProfile = name;
      return true;
    });
  }

  add(name: string, profile: Profile, makeActive: boolean | 'if-none'): boolean {
    return this.update((raw, current) => {
      if (Object.hasOwn(current.profiles, name)) return false;
      profilesOf(raw)[name] = stripUndefined(profile);
      if (makeActive === true || (makeActive === 'if-none' && !current.activeProfile)) raw.activeProfile = name;
      return true;
    });
  }

  remove(name: string): void {
    this.update((raw) => {
      delete profilesOf(raw)[name];
      if (raw.activeProfile === name) delete raw.activeProfile;
      return true;
    });
  }

  setActive(name: string | undefined): void {
    this.update((raw) => {
      if (name === undefined) delete raw.activeProfile;
      else raw.activeProfile = name;
      return true;
    });
  }

  /**
   * Applies a change to the file as it is now on disk, under the lock. Keys llmobs does not know
   * are kept. `change` returns false to leave the file as it is.
   */
  private update(change: (raw: Record<string, unknown>, current: ConfigFile) => boolean): boolean {
    const target = this.writeTarget();
    const release = this.lock();
    try {
      const raw = this.readRaw();
      const current = this.validate(raw);
      if (!change(raw, current)) return false;
      const next = this.validate(raw);
      writeAtomically(target, `${JSON.stringify(raw, null, '\t')}\n`);
      this.cached = { raw, parsed: next };
      return true;
    } finally {
      release();
    }
  }

  /**
   * Where a write goes: the file itself, or the file a symbolic link points to (dotfile managers
   * link configs) unless the link sits in a directory other users can write, where anyone could
   * have planted it to capture the keys.
   */
  private writeTarget(): string {
    let link;
    try {
      link = lstatSync(this.path);
    } catch {
      return this.path;
    }
    if (!link.isSymbolicLink()) return this.path;
    const dirMode = statSync(this.dir).mode;
    if ((dirMode & GROUP_OTHER_W) !== 0) {
      throw new ConfigError(
        `config file ${this.path} is a symbolic link in a directory other users can write (mode ${octal(dirMode)}); llmobs does not write keys through it`,
        { hint: `Anyone could have planted it. Remove the link, make the directory private (chmod 700 ${this.dir}), or set LLMOBS_CONFIG_DIR to a private directory.` },
      );
    }
    let real: string;
    try {
      real = realpathSync(this.path);
    } catch {
      throw new ConfigError(`config file ${this.path} is a symbolic link to a file that does not exist`, { hint: 'Remove the link or create its target.' });
    }
    const targetDirMode = statSync(dirname(real)).mode;
    if ((targetDirMode & GROUP_OTHER_W) !== 0 && (targetDirMode & STICKY) === 0) {
      throw new ConfigError(`config file ${this.path} links to ${real}, in a directory other users can write; llmobs does not write keys there`, {
        hint: 'Keep the configuration in a private directory (chmod 700).',
      });
    }
    return real;
  }

  /** Takes the lock file next to the config file; returns its release. */
  private lock(): () => void {
    const path = `${this.path}.lock`;
    try {
      return acquireLock(path, this.lockTimeoutMs);
    } catch (error) {
      if (error instanceof LockHeldError) {
        throw new ConfigError(`config file ${this.path} is locked by another llmobs command (${path})`, {
          hint: `Nothing was changed. Try again; if no other llmobs command is running, remove ${path}.`,
        });
      }
      throw new ConfigError(`cannot lock config file ${this.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { hint: `Check that ${this.dir} is writable.` });
    }
  }
}

/** Far more than any set of profiles takes; a larger file is not one llmobs wrote. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

const FIX_HINT = 'The file was left untouched. Fix it by hand (it is JSON), or move it away to start over.';

/** Replaces the file whole, flushed: never half a file, even after a crash. */
function writeAtomically(path: string, text: string): void {
  try {
    writeFileAtomic(path, text, { mode: 0o600 });
  } catch (error) {
    throw new ConfigError(`cannot write config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      hint: 'Nothing was changed. Check the permissions of the directory and the free disk space.',
    });
  }
}

/**
 * A JSON syntax error by line and column only: V8's message quotes the text around the error,
 * which in this file may be a secret key.
 */
function invalidJson(path: string, text: string, error: unknown): ConfigError {
  const message = (error as Error).message;
  const at = /position (\d+)/.exec(message);
  let where = '';
  if (at) {
    const offset = Math.min(Number(at[1]), text.length);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    where = ` at line ${line}, column ${column}`;
  } else if (/end of JSON input|Unterminated/i.test(message)) {
    where = ' (it ends too early)';
  }
  return new ConfigError(`config file ${path} is not valid JSON${where}`, { hint: FIX_HINT });
}

function profilesOf(raw: Record<string, unknown>): Record<string, unknown> {
  const current = raw.profiles;
  if (typeof current === 'object' && current !== null && !Array.isArray(current)) return current as Record<string, unknown>;
  const fresh: Record<string, unknown> = {};
  raw.profiles = fresh;
  return fresh;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
}
