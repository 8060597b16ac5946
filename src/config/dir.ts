import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the profile file lives. Apart from the store, so that asking costs nothing to load. */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CONFIG_DIR) return env.LLMOBS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'llmobs');
}
