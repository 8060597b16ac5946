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

/**
 * A query whose answer is too large to give (the service answers 422 when ClickHouse stops a
 * query at its resource limits, web/src/features/public-api/server/withMiddlewares.ts).
 */
export class MetricsResourceError extends Error {
  constructor() {
    super('the answer is too large');
    this.name = 'MetricsResourceError';
  }
}
