// The ingestion API's event schemas (API.md section 8), shaped as the Langfuse server's zod
// schemas are (packages/shared/src/server/ingestion/types.ts), so that an event is accepted,
// transformed and rejected the same way, with the same validation messages. Both the batch
// endpoint and the OpenTelemetry mapping run their events through these.
import { z } from 'zod';

export const DEFAULT_ENVIRONMENT = 'default';

const idSchema = z
  .string()
  .min(1)
  .max(800)
  .refine((id) => !id.includes('\r'), { message: 'ID cannot contain carriage return characters' });

const observationLevel = z.enum(['DEBUG', 'DEFAULT', 'WARNING', 'ERROR']);

// The server's ModelUsageUnit enum, in its declaration order (it shows in messages).
const usageUnit = z.enum(['CHARACTERS', 'TOKENS', 'SECONDS', 'MILLISECONDS', 'IMAGES', 'REQUESTS']);

const stringDateTime = z.iso.datetime({ offset: true }).nullish();

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Off: every value runs the full schemas (tests compare both ways). */
export const shortcuts = { enabled: true };

/**
 * `schema`, with a shortcut for the values `accept` recognises as ones it passes: they give
 * `output(value)` without running it. A union of zod schemas builds the issues of every option
 * that fails, which made the metadata, model parameters and usage of an event most of its
 * validation time. Anything else runs `schema` itself, so what is refused is refused with its
 * messages, and `accept` must only take values `schema` takes with that output.
 */
function shortcut<T extends z.ZodType>(schema: T, accept: (value: unknown) => boolean, output: (value: any) => z.output<T> = (value) => value) {
  return z.any().transform((value, ctx): z.output<T> => {
    if (shortcuts.enabled && accept(value)) return output(value);
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue(issue as never);
    return z.NEVER;
  });
}

/**
 * An object zod's record gives back as it is: its prototype is Object's or none, and it has no
 * own `__proto__` key (JSON.parse makes one of `{"__proto__": ...}`; the record's copy drops it,
 * so such an object takes the full schema).
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !Object.hasOwn(value, '__proto__');
}

/** A JSON value as the schemas below take it: finite numbers, plain objects, null only nested. */
function isJson(value: unknown, nested = false): boolean {
  if (value === null) return nested;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (Array.isArray(value)) return value.every((item) => isJson(item, true));
      if (!isPlainObject(value)) return false;
      for (const key of Object.keys(value)) if (!isJson(value[key], true)) return false;
      return true;
    default:
      return false;
  }
}

const nestedLiteral = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const jsonNullable: z.ZodType<JsonValue> = z.lazy(() => z.union([z.array(jsonNullable), z.record(z.string(), jsonNullable), nestedLiteral]));
/** Any JSON value except a top-level null. */
const jsonSchema = shortcut(
  z.lazy(() => z.union([z.array(jsonNullable), z.record(z.string(), jsonNullable), z.union([z.string(), z.number(), z.boolean()])])) as z.ZodType<JsonValue>,
  (value) => isJson(value),
);

const usageObject = z.object({
  input: z.number().int().nullish(),
  output: z.number().int().nullish(),
  total: z.number().int().nullish(),
  unit: usageUnit.nullish(),
  inputCost: z.number().nullish(),
  outputCost: z.number().nullish(),
  totalCost: z.number().nullish(),
});

const mixedUsage = usageObject.extend({
  promptTokens: z.number().int().nullish(),
  completionTokens: z.number().int().nullish(),
  totalTokens: z.number().int().nullish(),
});

export type LegacyUsageBody = z.infer<typeof usageObject>;

/** The legacy `usage` field; OpenAI camelCase counts switch it to {input, output, total} in TOKENS. */
const usage = mixedUsage
  .nullish()
  .transform((v) => {
    if (!v) return null;
    if ('promptTokens' in v || 'completionTokens' in v || 'totalTokens' in v) {
      return { input: v.promptTokens, output: v.completionTokens, total: v.totalTokens, unit: 'TOKENS' as const };
    }
    if (Object.keys(v).length === 0) return undefined;
    return v;
  })
  .pipe(usageObject.nullish());

const costDetails = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((value) => {
    if (!value) return value;
    const result: Record<string, number> = {};
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'number' && !Number.isNaN(v) && v >= 0) result[key] = v;
    }
    return Object.keys(result).length > 0 ? result : undefined;
  })
  .nullish();

function rawUsage(value: Record<string, unknown>): Record<string, number> | undefined {
  const result: Record<string, number> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) result[key] = v;
    else if (typeof v === 'string') {
      const parsed = parseInt(v, 10);
      if (!Number.isNaN(parsed) && parsed >= 0) result[key] = parsed;
    }
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

const rawUsageDetails = z.record(z.string(), z.unknown()).transform(rawUsage);

const detailCounts = z.record(z.string(), z.number().int().nonnegative().nullish()).nullish();

/** Sets `<prefix>_<key>` for each detail and takes it off the `<prefix>` count (never below 0). */
function splitDetails(result: Record<string, number>, prefix: 'input' | 'output', details: Record<string, number | null | undefined> | null | undefined): void {
  if (!details) return;
  for (const [key, value] of Object.entries(details)) {
    if (value === null || value === undefined) continue;
    result[`${prefix}_${key}`] = value;
    result[prefix] = Math.max(result[prefix]! - value, 0);
  }
}

const openAiCompletionUsage = z
  .strictObject({
    prompt_tokens: z.number().int().nonnegative(),
    completion_tokens: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
    prompt_tokens_details: detailCounts,
    completion_tokens_details: detailCounts,
  })
  .transform((v) => {
    const result: Record<string, number> = { input: v.prompt_tokens, output: v.completion_tokens, total: v.total_tokens };
    splitDetails(result, 'input', v.prompt_tokens_details);
    splitDetails(result, 'output', v.completion_tokens_details);
    return result;
  });

const openAiResponseUsage = z
  .strictObject({
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
    input_tokens_details: detailCounts,
    output_tokens_details: detailCounts,
  })
  .transform((v) => {
    const result: Record<string, number> = { input: v.input_tokens, output: v.output_tokens, total: v.total_tokens };
    splitDetails(result, 'input', v.input_tokens_details);
    splitDetails(result, 'output', v.output_tokens_details);
    return result;
  });

// An object without total_tokens can be neither OpenAI shape (both require it): it is the raw form.
export const usageDetails = shortcut(
  z.union([openAiCompletionUsage, openAiResponseUsage, rawUsageDetails]),
  (value) => isPlainObject(value) && value['total_tokens'] === undefined,
  rawUsage,
).nullish();

/**
 * Environment names as the public ingestion schema normalises them: lower-cased, every leading
 * "langfuse" prefix (with an optional - or _) removed, cut to 40 characters, and "default" when
 * the result is empty or holds anything but a-z, 0-9, - and _ (or the value is not a string).
 */
export const environmentName = z
  .string()
  .toLowerCase()
  .transform((value) => {
    const stripped = value.replace(/^(?:langfuse[-_]?)+/, '');
    const truncated = stripped.slice(0, 40);
    return !truncated || !/^[a-z0-9-_]+$/.test(truncated) ? DEFAULT_ENVIRONMENT : truncated;
  })
  .catch(DEFAULT_ENVIRONMENT)
  .default(DEFAULT_ENVIRONMENT);

export function normalizeEnvironment(value: unknown): string {
  return environmentName.parse(value);
}

const traceBody = z.object({
  id: idSchema.nullish(),
  timestamp: stringDateTime,
  name: z.string().max(1000).nullish(),
  externalId: z.string().nullish(),
  input: z.any().nullish(),
  output: z.any().nullish(),
  sessionId: z.string().nullish(),
  userId: z.string().nullish(),
  environment: environmentName,
  metadata: jsonSchema.nullish(),
  release: z.string().nullish(),
  version: z.string().nullish(),
  public: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
});

const optionalObservationBody = z.object({
  traceId: idSchema.nullish(),
  environment: environmentName,
  name: z.string().nullish(),
  startTime: stringDateTime,
  metadata: jsonSchema.nullish(),
  input: z.any().nullish(),
  output: z.any().nullish(),
  level: observationLevel.nullish(),
  statusMessage: z.string().nullish(),
  parentObservationId: z.string().nullish(),
  version: z.string().nullish(),
});

const eventBody = optionalObservationBody.extend({ id: idSchema });
const spanBody = eventBody.extend({ endTime: stringDateTime });

const isModelParameterValue = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  (Array.isArray(value) && value.every((item) => typeof item === 'string')) ||
  (isPlainObject(value) && Object.values(value).every((item) => typeof item === 'string'));

const modelParameters = shortcut(
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.record(z.string(), z.string())]).nullish()),
  (value) => isPlainObject(value) && Object.values(value).every(isModelParameterValue),
).nullish();

const generationBody = spanBody
  .extend({
    completionStartTime: stringDateTime,
    model: z.string().nullish(),
    modelParameters,
    usage,
    usageDetails,
    costDetails,
    promptName: z.string().nullish(),
    promptVersion: z.number().int().nullish(),
  })
  // promptName and promptVersion come together or not at all.
  .refine((v) => (!v.promptName && !v.promptVersion) || (!!v.promptName && !!v.promptVersion));

const legacyModelParameters = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).nullish()).nullish();

const legacyObservationBody = z.object({
  id: idSchema.nullish(),
  traceId: idSchema.nullish(),
  type: z.enum(['GENERATION', 'SPAN', 'EVENT']),
  name: z.string().nullish(),
  startTime: stringDateTime,
  endTime: stringDateTime,
  completionStartTime: stringDateTime,
  model: z.string().nullish(),
  modelParameters: legacyModelParameters,
  input: jsonSchema.nullish(),
  output: jsonSchema.nullish(),
  usage,
  usageDetails,
  costDetails,
  metadata: jsonSchema.nullish(),
  parentObservationId: z.string().nullish(),
  level: observationLevel.nullish(),
  statusMessage: z.string().nullish(),
  version: z.string().nullish(),
});

export const TEXT_SCORE_MAX_LENGTH = 500;

const baseScoreBody = z.object({
  id: idSchema.nullish(),
  name: z.string().min(1),
  traceId: z.string().nullish(),
  sessionId: z.string().nullish(),
  datasetRunId: z.string().nullish(),
  environment: environmentName,
  observationId: z.string().nullish(),
  comment: z.string().nullish(),
  metadata: jsonSchema.nullish(),
  source: z.enum(['API', 'EVAL', 'ANNOTATION']).default('API'),
  executionTraceId: z.string().nullish(),
  queueId: z.string().nullish(),
});

const scoreBody = z
  .discriminatedUnion('dataType', [
    baseScoreBody.extend({ value: z.number(), dataType: z.literal('NUMERIC'), configId: z.string().nullish() }),
    baseScoreBody.extend({ value: z.string(), dataType: z.literal('CATEGORICAL'), configId: z.string().nullish() }),
    baseScoreBody.extend({
      value: z.number().refine((value) => value === 0 || value === 1, { message: 'Value must be a number equal to either 0 or 1 for data type BOOLEAN' }),
      dataType: z.literal('BOOLEAN'),
      configId: z.string().nullish(),
    }),
    baseScoreBody.extend({ value: z.string(), dataType: z.literal('CORRECTION'), configId: z.undefined().nullish() }),
    baseScoreBody.extend({ value: z.string().min(1).max(TEXT_SCORE_MAX_LENGTH), dataType: z.literal('TEXT'), configId: z.string().nullish() }),
    // No dataType: inferred from the value. (Optional explicitly: zod 4.6 no longer treats z.undefined() keys as optional.)
    baseScoreBody.extend({ value: z.union([z.string(), z.number()]), dataType: z.undefined().optional(), configId: z.string().nullish() }),
  ])
  .refine(
    (data) => {
      const trace = !!data.traceId;
      const session = !!data.sessionId;
      const run = !!data.datasetRunId;
      return (trace && !session && !run) || (session && !trace && !run && !data.observationId) || (run && !trace && !session && !data.observationId);
    },
    {
      message: 'Provide exactly one of the following: traceId (with optional observationId), sessionId or datasetRunId. ObservationId requires traceId.',
      path: ['traceId', 'sessionId', 'datasetRunId', 'observationId'],
    },
  );

const datasetRunItemBody = z.object({
  id: idSchema.nullish(),
  traceId: z.string(),
  observationId: z.string().nullish(),
  error: z.string().nullish(),
  createdAt: stringDateTime.nullish(),
  datasetId: z.string(),
  runId: z.string(),
  datasetItemId: z.string(),
  datasetVersion: stringDateTime.optional(),
});

const sdkLogBody = z.object({ log: jsonSchema, id: z.string().nullish() });

const envelope = z.object({
  id: idSchema,
  timestamp: z.iso.datetime({ offset: true }),
  metadata: jsonSchema.nullish(),
});

const event = <T extends string, B extends z.ZodType>(type: T, body: B) => envelope.extend({ type: z.literal(type), body });

export const ingestionEvent = z.discriminatedUnion('type', [
  event('trace-create', traceBody),
  event('score-create', scoreBody),
  event('event-create', eventBody),
  event('span-create', spanBody),
  event('span-update', spanBody),
  event('generation-create', generationBody),
  event('generation-update', generationBody),
  event('agent-create', generationBody),
  event('tool-create', generationBody),
  event('chain-create', generationBody),
  event('retriever-create', generationBody),
  event('evaluator-create', generationBody),
  event('embedding-create', generationBody),
  event('guardrail-create', generationBody),
  event('sdk-log', sdkLogBody),
  // The public API refuses these; the message says why.
  event('dataset-run-item-create', datasetRunItemBody).refine(() => false, { message: 'Dataset run item creation is only allowed for internal usage' }),
  event('observation-create', legacyObservationBody),
  event('observation-update', legacyObservationBody),
]);

export type IngestionEvent = z.infer<typeof ingestionEvent>;
export type TraceEvent = Extract<IngestionEvent, { type: 'trace-create' }>;
export type ScoreEvent = Extract<IngestionEvent, { type: 'score-create' }>;
export type ObservationEvent = Exclude<IngestionEvent, { type: 'trace-create' | 'score-create' | 'sdk-log' | 'dataset-run-item-create' }>;
export type TraceBody = z.infer<typeof traceBody>;
export type ScoreBody = z.infer<typeof scoreBody>;

/** The envelope of the batch endpoint: `batch` must be an array; `metadata` any JSON. */
export const batchRequest = z.object({
  batch: z.array(z.unknown()),
  metadata: jsonSchema.nullish(),
});
