import { PromptUsageError } from './errors.js';

export const COMMIT_MESSAGE_MAX_LENGTH = 500;

/** The server's limit counts UTF-16 code units (zod `.max()`), so this does too. */
export function validateCommitMessage(message: string): string {
  if (message.length > COMMIT_MESSAGE_MAX_LENGTH) {
    throw new PromptUsageError(
      `The commit message is ${message.length} characters long; the limit is ${COMMIT_MESSAGE_MAX_LENGTH}.`,
    );
  }
  return message;
}
