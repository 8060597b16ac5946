// The events most requests are made of, checked by hand: traces, and spans, generations and
// events whose fields are plain (strings, times, JSON, usage in its raw form). The schemas'
// generic machinery (schemas.ts: unions, wrappers, transforms) costs several times what these
// direct checks do, on every event of every request. `parseEvent` gives what
// `ingestionEvent` gives for such an event, field for field and in its order; for anything else
// (a legacy usage object, a prompt, OpenAI usage, a score, a value of the wrong type) it runs the
// schemas, so that what is refused is refused with their messages. The shortcut must only take
// what the schemas take with that output (test/unit/server/ingest/event-shortcut.test.ts).
import { z } from 'zod';
import { costDetailsOf, type IngestionEvent, ingestionEvent, isJson, isModelParameterValue, isPlainObject, normalizeEnvironment, rawUsage, shortcuts } from './schemas.js';

/** Every check of a field: the value to give, or BAIL when the schemas must decide. */
const BAIL = Symbol('run the schemas');
type Check = (value: unknown) => unknown;

// The schemas' own pattern of an ISO date-time with an offset (z.iso.datetime({ offset: true })).
const DATETIME = z.core.regexes.datetime({ offset: true });

const nullish = (check: Check): Check => (value) => (value === undefined || value === null ? value : check(value));
const isId = (value: unknown) => typeof value === 'string' && value.length >= 1 && value.length <= 800 && !value.includes('\r');
const id: Check = (value) => (isId(value) ? value : BAIL);
const string: Check = (value) => (typeof value === 'string' ? value : BAIL);
const time: Check = (value) => (typeof value === 'string' && DATETIME.test(value) ? value : BAIL);
const json: Check = (value) => (isJson(value) ? value : BAIL);
const any: Check = (value) => value;
const level: Check = (value) => (value === 'DEBUG' || value === 'DEFAULT' || value === 'WARNING' || value === 'ERROR' ? value : BAIL);
const modelParameters: Check = (value) => (isPlainObject(value) && Object.values(value).every(isModelParameterValue) ? value : BAIL);
// The raw form only: an object with total_tokens may be one of OpenAI's.
const usageDetails: Check = (value) => (isPlainObject(value) && value['total_tokens'] === undefined ? rawUsage(value) : BAIL);
const costDetails: Check = (value) => (isPlainObject(value) ? costDetailsOf(value) : BAIL);
// Without a legacy usage object, the schema gives null.
const noUsage: Check = (value) => (value === undefined || value === null ? null : BAIL);
// With a prompt, the schemas check that its name and version come together.
const noPrompt: Check = (value) => (value === undefined || value === null ? value : BAIL);

/**
 * A body's fields in the schema's order. A field not sent is left out, except a required one
 * (the schemas refuse the event) and environment (given whether sent or not).
 */
type Shape = ReadonlyArray<readonly [string, Check, ('required' | 'always')?]>;

const observationFields: Shape = [
  ['traceId', nullish(id)],
  ['environment', normalizeEnvironment, 'always'],
  ['name', nullish(string)],
  ['startTime', nullish(time)],
  ['metadata', nullish(json)],
  ['input', any],
  ['output', any],
  ['level', nullish(level)],
  ['statusMessage', nullish(string)],
  ['parentObservationId', nullish(string)],
  ['version', nullish(string)],
  ['id', id, 'required'],
];
const spanFields: Shape = [...observationFields, ['endTime', nullish(time)]];
const generationFields: Shape = [
  ...spanFields,
  ['completionStartTime', nullish(time)],
  ['model', nullish(string)],
  ['modelParameters', nullish(modelParameters)],
  ['usage', noUsage],
  ['usageDetails', nullish(usageDetails)],
  ['costDetails', nullish(costDetails)],
  ['promptName', noPrompt],
  ['promptVersion', noPrompt],
];
const traceFields: Shape = [
  ['id', nullish(id)],
  ['timestamp', nullish(time)],
  ['name', nullish((value) => (typeof value === 'string' && value.length <= 1000 ? value : BAIL))],
  ['externalId', nullish(string)],
  ['input', any],
  ['output', any],
  ['sessionId', nullish(string)],
  ['userId', nullish(string)],
  ['environment', normalizeEnvironment, 'always'],
  ['metadata', nullish(json)],
  ['release', nullish(string)],
  ['version', nullish(string)],
  ['public', nullish((value) => (typeof value === 'boolean' ? value : BAIL))],
  ['tags', nullish((value) => (Array.isArray(value) && value.every((tag) => typeof tag === 'string') ? [...value] : BAIL))],
];

const SHAPES = new Map<string, Shape>([
  ['trace-create', traceFields],
  ['event-create', observationFields],
  ['span-create', spanFields],
  ['span-update', spanFields],
  ...['generation-create', 'generation-update', 'agent-create', 'tool-create', 'chain-create', 'retriever-create', 'evaluator-create', 'embedding-create', 'guardrail-create'].map(
    (type) => [type, generationFields] as const,
  ),
]);

/** The body as the schema gives it (unknown fields left out), or BAIL. */
function bodyOf(body: unknown, shape: Shape): Record<string, unknown> | typeof BAIL {
  if (!isPlainObject(body)) return BAIL;
  const out: Record<string, unknown> = {};
  for (const [key, check, presence] of shape) {
    if (!(key in body)) {
      if (presence === 'required') return BAIL;
      if (presence !== 'always') continue;
    }
    const value = check(body[key]);
    if (value === BAIL) return BAIL;
    out[key] = value;
  }
  return out;
}

/** What `ingestionEvent` gives for an event of the common kinds, or undefined when the schemas must decide. */
function shortcut(event: unknown): IngestionEvent | undefined {
  if (!isPlainObject(event)) return undefined;
  const shape = typeof event['type'] === 'string' ? SHAPES.get(event['type']) : undefined;
  if (!shape || !isId(event['id']) || !(typeof event['timestamp'] === 'string' && DATETIME.test(event['timestamp']))) return undefined;
  const body = bodyOf(event['body'], shape);
  if (body === BAIL) return undefined;
  const out: Record<string, unknown> = { id: event['id'], timestamp: event['timestamp'] };
  if ('metadata' in event) {
    const metadata = nullish(json)(event['metadata']);
    if (metadata === BAIL) return undefined;
    out['metadata'] = metadata;
  }
  out['type'] = event['type'];
  out['body'] = body;
  return out as IngestionEvent;
}

/** `ingestionEvent.safeParse`, taking the shortcut for the common events. */
export function parseEvent(event: unknown): ReturnType<typeof ingestionEvent.safeParse> {
  const data = shortcuts.enabled ? shortcut(event) : undefined;
  return data ? { success: true, data } : ingestionEvent.safeParse(event);
}
