// A small, hand-made trace with every kind of observation, for the trace and report tests.
import type { SeedObservation, SeedScore, SeedTrace } from './fake-data-api.js';
import { storedCosts } from './fake-data-api.js';

export const CHAT_TRACE: SeedTrace = {
  id: 'trace-chat-1',
  timestamp: '2026-05-02T10:00:00.000Z',
  name: 'chat-request',
  userId: 'user-42',
  sessionId: 'session-7',
  release: '1.4.0',
  version: 'v3',
  environment: 'production',
  tags: ['beta', 'eu'],
  input: { question: 'What is the capital of France?' },
  output: { answer: 'Paris.' },
};

const usage1 = { input: 1200, output: 80, total: 1280 };
const usage2 = { input: 300, input_cached_tokens: 100, output: 40, total: 440 };

export const CHAT_OBSERVATIONS: SeedObservation[] = [
  { id: 'obs-root', traceId: CHAT_TRACE.id, type: 'SPAN', name: 'handle-request', startTime: '2026-05-02T10:00:00.000Z', endTime: '2026-05-02T10:00:02.500Z', environment: 'production' },
  { id: 'obs-retrieve', traceId: CHAT_TRACE.id, parentObservationId: 'obs-root', type: 'RETRIEVER', name: 'search-docs', startTime: '2026-05-02T10:00:00.050Z', endTime: '2026-05-02T10:00:00.300Z', environment: 'production' },
  {
    id: 'obs-llm-1', traceId: CHAT_TRACE.id, parentObservationId: 'obs-root', type: 'GENERATION', name: 'draft-answer', startTime: '2026-05-02T10:00:00.310Z', endTime: '2026-05-02T10:00:01.710Z',
    providedModelName: 'gpt-4o', internalModelId: 'b9854a5c92dc496b997d99d20', usageDetails: usage1, costDetails: storedCosts('gpt-4o', usage1), environment: 'production',
    input: [{ role: 'system', content: 'You answer questions about geography in one short sentence, citing no sources.' }, { role: 'user', content: 'What is the capital of France?' }],
    output: 'The capital of France is Paris.', modelParameters: { temperature: 0.2 },
  },
  { id: 'obs-tool', traceId: CHAT_TRACE.id, parentObservationId: 'obs-llm-1', type: 'TOOL', name: 'lookup', startTime: '2026-05-02T10:00:00.900Z', endTime: '2026-05-02T10:00:01.000Z', level: 'WARNING', statusMessage: 'slow lookup', environment: 'production' },
  {
    id: 'obs-llm-2', traceId: CHAT_TRACE.id, parentObservationId: 'obs-root', type: 'GENERATION', name: 'polish', startTime: '2026-05-02T10:00:01.800Z', endTime: '2026-05-02T10:00:02.400Z',
    providedModelName: 'gpt-4o-mini', internalModelId: 'model-mini', usageDetails: usage2, costDetails: storedCosts('gpt-4o-mini', usage2), environment: 'production', input: 'Polish: The capital of France is Paris.', output: 'Paris.',
  },
  { id: 'obs-fail', traceId: CHAT_TRACE.id, parentObservationId: 'obs-root', type: 'EVENT', name: 'guard', startTime: '2026-05-02T10:00:02.450Z', level: 'ERROR', statusMessage: 'content filter tripped', environment: 'production' },
];

export const CHAT_SCORES: SeedScore[] = [{ id: 'score-1', traceId: CHAT_TRACE.id, name: 'helpfulness', value: 0.9, timestamp: '2026-05-02T10:00:03.000Z' }];

/** The trace's cost: the sum of its generations' stored costs. */
export const CHAT_COST = (CHAT_OBSERVATIONS[2]!.costDetails!.total ?? 0) + (CHAT_OBSERVATIONS[4]!.costDetails!.total ?? 0);
