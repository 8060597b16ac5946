// The body of one ingestion request of bench/ingest.mjs: a trace and 100 generations under it,
// with usage provided ("provided") or without (kind "tokenize": the server counts their tokens).
import { randomUUID } from 'node:crypto';

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4.1', 'my-unknown-model'];
const QUESTIONS = [
  'What is the boiling point of water at sea level, in Celsius and Fahrenheit?',
  'Summarise the plot of Hamlet in two sentences for a ten-year-old.',
  'Write a haiku about continuous integration pipelines that fail on Fridays.',
  'Translate "the invoice is overdue" into French, German and Japanese.',
];

let sequence = 0;
/** One request body: a trace and 100 generations under it. */
export function batchBody(kind = 'provided') {
  const run = sequence++;
  const now = new Date().toISOString();
  // Random UUIDs for every id, as the SDKs send (sequential ids would insert into the id indexes
  // at one end only, which flatters a B-tree store).
  const traceId = randomUUID();
  const batch = [{ id: randomUUID(), type: 'trace-create', timestamp: now, body: { id: traceId, name: 'bench', userId: `user-${run % 17}` } }];
  for (let i = 0; i < 100; i++) {
    const body = {
      id: randomUUID(),
      traceId,
      name: 'llm-call',
      model: MODELS[i % MODELS.length],
      startTime: now,
      endTime: now,
      input: [
        { role: 'system', content: 'You are a concise assistant.' },
        { role: 'user', content: `${QUESTIONS[i % QUESTIONS.length]} (${run}-${i})` },
      ],
      output: 'Here is a short answer that a model might give, with a number or two: 100 °C, 212 °F.',
      modelParameters: { temperature: 0.2, max_tokens: 256 },
      metadata: { request: `${run}-${i}` },
    };
    if (kind !== 'tokenize') body.usageDetails = { input: 200 + i, output: 40 + (i % 7), input_cached_tokens: i % 3 };
    batch.push({ id: randomUUID(), type: 'generation-create', timestamp: now, body });
  }
  return JSON.stringify({ batch });
}
