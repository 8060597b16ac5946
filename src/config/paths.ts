// Where the profile file lives, without loading the store: commands that only need to know
// whether a profile could exist (e.g. to choose between the project's model definitions and the
// built-in catalogue) check the path and stay light.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function configDirectory(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CONFIG_DIR) return env.LLMOBS_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'llmobs');
}

export function profileFilePath(env: Record<string, string | undefined>): string {
  return join(configDirectory(env), 'config.json');
}
