// Wire shapes of the legacy trace routes (API.md section 5; openapi.yml TraceWithFullDetails,
// TraceWithDetails). Checked loosely: structural fields must have their types, numbers are read
// leniently later (src/core/numbers.ts), and fields a newer server adds pass through.
import { z } from 'zod';

const nullableString = z.string().nullish();

const traceFields = {
  id: z.string(),
  timestamp: nullableString,
  name: nullableString,
  userId: nullableString,
  sessionId: nullableString,
  release: nullableString,
  version: nullableString,
  environment: nullableString,
  tags: z.array(z.string()).nullish(),
  htmlPath: nullableString,
  // Numbers or numeric strings; a server that leaves them out shows the trace without them.
  latency: z.unknown().optional(),
  totalCost: z.unknown().optional(),
};

/** One observation inside a trace (ObservationsView). */
export const TraceObservationSchema = z.looseObject({
  id: z.string(),
  type: nullableString,
  parentObservationId: nullableString,
  startTime: nullableString,
  endTime: nullableString,
});

export const TraceSchema = z.looseObject({
  ...traceFields,
  observations: z.array(TraceObservationSchema).nullish(),
  scores: z.array(z.looseObject({})).nullish(),
});

export type ApiTrace = z.infer<typeof TraceSchema>;

/** A trace in the list: observations and scores are ids. */
export const TraceListItemSchema = z.looseObject({
  ...traceFields,
  observations: z.array(z.string()).nullish(),
  scores: z.array(z.string()).nullish(),
});

export type ApiTraceListItem = z.infer<typeof TraceListItemSchema>;
