// The data of the read benches: batches of ingestion events as a v3 SDK sends them (a trace, then
// generations under it with usage and cost provided), the same for every store that is seeded with
// them. Ids look like UUIDs and fall at random places in any index, as the SDKs' ids do, but are
// the same on every run.
import { createHash } from 'node:crypto';

export const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4.1', 'my-unknown-model'];
const QUESTIONS = [
  'What is the boiling point of water at sea level, in Celsius and Fahrenheit?',
  'Summarise the plot of Hamlet in two sentences for a ten-year-old.',
  'Write a haiku about continuous integration pipelines that fail on Fridays.',
  'Translate "the invoice is overdue" into French, German and Japanese.',
];
/** Where the observations' start times begin; they spread over `DAYS` days. */
export const BASE = Date.UTC(2026, 4, 1);
export const DAYS = 30;

export function uuidOf(name) {
  const hex = createHash('md5').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Batch `b` of `total` observations in batches of 100: a trace event (its own trace, or with
 * `traceId` one trace for all, created by the first batch), then 100 generation-create events;
 * `inputBytes` pads each user message to about that many more characters (with quotes, which
 * answers escape).
 */
export function seededBatch(b, total, { traceId, inputBytes } = {}) {
  const step = (DAYS * 86_400_000) / total;
  const trace = traceId ?? uuidOf(`trace-${b}`);
  const at = (n) => new Date(BASE + Math.floor(n * step)).toISOString();
  const events = [];
  if (!traceId || b === 0) events.push({ id: uuidOf(`trace-event-${b}`), type: 'trace-create', timestamp: at(b * 100), body: { id: trace, name: 'chat', userId: `user-${b % 50}`, tags: ['bench'] } });
  for (let i = 0; i < 100; i++) {
    const n = b * 100 + i;
    const input = 200 + (n % 500);
    const output = 40 + (n % 60);
    events.push({
      id: uuidOf(`event-${n}`),
      type: 'generation-create',
      timestamp: at(n),
      body: {
        id: uuidOf(`observation-${n}`),
        traceId: trace,
        name: 'llm-call',
        model: MODELS[n % MODELS.length],
        startTime: at(n),
        endTime: new Date(Date.parse(at(n)) + 500 + (n % 2000)).toISOString(),
        input: [
          { role: 'system', content: 'You are a concise assistant.' },
          { role: 'user', content: `${QUESTIONS[n % QUESTIONS.length]} (${n})${inputBytes ? ` "quoted" text`.repeat(Math.ceil(inputBytes / 14)).slice(0, inputBytes) : ''}` },
        ],
        output: 'Here is a short answer that a model might give, with a number or two: 100 °C, 212 °F.',
        modelParameters: { temperature: 0.2, max_tokens: 256 },
        metadata: { request: String(n) },
        usageDetails: { input, output },
        costDetails: { input: input * 0.0000025, output: output * 0.00001, total: input * 0.0000025 + output * 0.00001 },
      },
    });
  }
  return events;
}
