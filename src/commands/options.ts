// Validation of a command's arguments and options with zod: a bad value is a usage error that
// names the flag, raised before anything is read or sent.
import type { z } from 'zod';
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../errors.js';
import { formatInteger } from '../core/thousands.js';

/** Positions and page sizes the API takes are 32-bit integers on the server. */
export const MAX_INT32 = 2_147_483_647;

/**
 * The one rule for numeric options: a whole number written in digits (no sign, exponent or
 * fraction, so "1e3" or "0x10" are refused rather than read as something else) within
 * [min, max], so a value out of range never reaches a timer or a request. Returns the number,
 * or the message saying what is allowed.
 */
export function checkWholeNumber(value: string, min: number, max: number): number | { message: string } {
  const text = value.trim();
  const n = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
  return { message: `must be a whole number from ${formatInteger(min)} to ${formatInteger(max)}` };
}

/** `checkWholeNumber` as a zod transform: `z.string().transform(wholeNumber(1, 100))`. */
export function wholeNumber(min: number, max: number) {
  return (value: string, ctx: z.RefinementCtx<string>): number => {
    const n = checkWholeNumber(value, min, max);
    if (typeof n === 'number') return n;
    ctx.addIssue({ code: 'custom', message: n.message, input: value });
    return min;
  };
}

/** `checkWholeNumber` for commander's argParser (global options, parsed before any command runs). */
export function wholeNumberArg(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = checkWholeNumber(value, min, max);
    if (typeof n === 'number') return n;
    throw new InvalidArgumentError(`${flag} ${n.message}, got ${JSON.stringify(value)}`);
  };
}

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
