import { join } from 'node:path';

/** Where the profile file lives. Apart from the store, so that asking costs nothing to load. */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CONFIG_DIR) return env.LLMOBS_CONFIG_DIR;
  // Node's os module only without HOME: loading it is half a millisecond of a command's start.
  const base = env.XDG_CONFIG_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.config');
  return join(base, 'llmobs');
}
