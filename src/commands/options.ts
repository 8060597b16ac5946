// Validation of a command's arguments and options with zod: a bad value is a usage error that
// names the flag, raised before anything is read or sent.
import type { z } from 'zod';
import { UsageError } from '../errors.js';

export function parseOptions<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    return field ? `${flagName(field)}: ${issue.message}` : issue.message;
  });
  throw new UsageError(messages.join('; '));
}

export function flagName(field: string): string {
  return `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Parses `key=value`; the value may contain `=`. */
export function splitAssignment(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} expects key=value, got "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
