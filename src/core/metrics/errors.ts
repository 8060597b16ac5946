import type { z } from 'zod';

/**
 * A metrics query the service refuses (its answer is 400): a message, or the issues of the
 * query's schema (the service then answers "Invalid request data" with them).
 */
export class MetricsQueryError extends Error {
  constructor(
    message: string,
    readonly issues?: readonly z.core.$ZodIssue[],
  ) {
    super(message);
    this.name = 'MetricsQueryError';
  }
}
