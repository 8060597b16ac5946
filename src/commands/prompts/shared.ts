// Pieces the prompt and label verbs share: argument parsing and plain-text output.
import { z } from 'zod';
import type { Context } from '../../context.js';
import { PromptUsageError } from '../../core/prompts/errors.js';
import { assertNotLatest } from '../../core/prompts/label.js';
import { validatePromptName } from '../../core/prompts/name.js';
import { type PromptSelector, parseVersion, validateSelector } from '../../core/prompts/selector.js';
import { UPDATED_AT_FORMAT, updatedAtSchema } from '../../core/prompts/updated-at.js';
import { pagingFields } from '../paging.js';

/** The name the server will store (trimmed), or a usage error by the server's rules. */
export function promptName(raw: unknown): string {
  return validatePromptName(String(raw ?? ''));
}

/** The options of a verb that acts on one version of a prompt: `NAME [--version N | --label L]`. */
export const promptVersionOptions = {
  name: z.string(),
  version: z.string().optional(),
  label: z.string().optional(),
};

export function selectorFrom(opts: { version?: string | undefined; label?: string | undefined }): PromptSelector {
  return validateSelector({ version: opts.version, label: opts.label });
}

/** A version or a label given as one word: digits are a version. */
export function versionOrLabel(token: string): PromptSelector {
  return /^\s*\d+\s*$/.test(token) ? { version: parseVersion(token) } : validateSelector({ label: token });
}

/** `--expect-current N`, or `none` for "on no version". */
export function parseExpectCurrent(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'none') return null;
  return parseVersion(value);
}

/**
 * Prompt text exactly as stored, for pipes and files; on a terminal a missing final line break is
 * added so the shell prompt does not end up on the last line.
 */
export function writeText(ctx: Context, text: string): void {
  ctx.out.content(text);
}

/**
 * What a label to set can never be, checked before anything is sent. The rest needs the current
 * labels: a label that exists may be moved even if create would refuse it (PATCH does not check).
 */
export function checkLabelToMove(label: string): string {
  assertNotLatest(label);
  if (label.length === 0) throw new PromptUsageError('The label must not be empty.');
  return label;
}

const updatedAt = updatedAtSchema((input) => `must be ${UPDATED_AT_FORMAT}, not ${JSON.stringify(input)}`);

/** The flags of `prompts list`: its filters, each bound checked as the server checks it, and paging. */
export const ListOptions = z
  .object({
    name: z.string().optional(),
    label: z.string().min(1, 'must not be empty').optional(),
    tag: z.string().min(1, 'must not be empty').optional(),
    fromUpdatedAt: updatedAt.optional(),
    toUpdatedAt: updatedAt.optional(),
    ...pagingFields,
  })
  .superRefine(({ fromUpdatedAt: from, toUpdatedAt: to }, check) => {
    // Only two valid times can be compared; a bad one is reported by its own field.
    if (from === undefined || to === undefined || !updatedAt.safeParse(from).success || !updatedAt.safeParse(to).success) return;
    if (Date.parse(from) >= Date.parse(to)) {
      check.addIssue({ code: 'custom', message: `--from-updated-at (${from}) must be earlier than --to-updated-at (${to}): from is inclusive and to exclusive, so nothing could match` });
    }
  });
