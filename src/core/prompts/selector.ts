import { PromptUsageError, show } from './errors.js';

/** Which version a fetch asks for; with neither field the server serves `production`. */
export type PromptSelector = { version: number } | { label: string } | Record<string, never>;

/**
 * Checks a version/label pair before a request. The server answers 400 to both at once, and
 * treats `version=0` as absent (silently serving `production`), so 0 is refused here.
 */
export function validateSelector(input: { version?: number | string; label?: string }): PromptSelector {
  const { version, label } = input;
  if (version !== undefined && label !== undefined) {
    throw new PromptUsageError(
      `Give a version or a label, not both (got version ${show(version)} and label ${show(label)}).`,
    );
  }
  if (version !== undefined) return { version: parseVersion(version) };
  if (label !== undefined) {
    if (label.length === 0) throw new PromptUsageError('The label must not be empty.');
    return { label };
  }
  return {};
}

/** Parses a version number given as a number or as text; versions start at 1. */
export function parseVersion(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  // Versions are 32-bit integers on the server.
  if (!/^[1-9][0-9]*$/.test(text) || !(Number(text) <= 2_147_483_647)) {
    throw new PromptUsageError(`Invalid version ${show(value)}: it must be a whole number from 1 to 2,147,483,647.`);
  }
  return Number(text);
}
