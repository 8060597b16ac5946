import { PromptUsageError, show } from './errors.js';

export const LATEST_LABEL = 'latest';
export const PRODUCTION_LABEL = 'production';
export const LABEL_PATTERN = /^[a-z0-9_\-.]+$/;
export const LABEL_MAX_LENGTH = 36;

const LATEST_HINT =
  "'latest' always points at the newest version; the server moves it on every create.";

/** Refuses `latest`, which the server assigns itself (PATCH answers 400, create ignores it). */
export function assertNotLatest(label: string): void {
  if (label === LATEST_LABEL) {
    throw new PromptUsageError("The label 'latest' cannot be set by hand.", LATEST_HINT);
  }
}

/** Validates one label as the server does on create (`PromptLabelSchema`), plus the `latest` rule. */
export function validateLabel(label: string): string {
  assertNotLatest(label);
  if (label.length < 1 || label.length > LABEL_MAX_LENGTH) {
    throw new PromptUsageError(
      `Invalid label ${show(label)}: it must be 1 to ${LABEL_MAX_LENGTH} characters long (it has ${label.length}).`,
    );
  }
  if (!LABEL_PATTERN.test(label)) {
    throw new PromptUsageError(
      `Invalid label ${show(label)}: use only lowercase letters, digits, '_', '-' and '.'.`,
    );
  }
  return label;
}

/** Validates a list of labels and drops repeats, as the server does. */
export function validateLabels(labels: readonly string[]): string[] {
  return [...new Set(labels.map(validateLabel))];
}
