// A span's input and output (OtelIngestionProcessor.extractInputAndOutput): Langfuse's own
// attributes first, then the conventions of the instrumentation libraries Langfuse reads, in the
// same order; and the span attributes left for metadata once the input and output keys are gone.
import { type Attributes, attributesOf, parseJsonPayload } from './values.js';

const INPUT_OUTPUT_KEYS = [
  'langfuse.trace.input',
  'langfuse.trace.output',
  'langfuse.observation.input',
  'langfuse.observation.output',
  // Vercel AI SDK
  'ai.prompt.messages',
  'ai.prompt',
  'ai.toolCall.args',
  'ai.response.text',
  'ai.result.text',
  'ai.toolCall.result',
  'ai.response.object',
  'ai.result.object',
  'ai.response.toolCalls',
  'ai.result.toolCalls',
  // Google Vertex AI agents
  'gcp.vertex.agent.llm_request',
  'gcp.vertex.agent.llm_response',
  'gcp.vertex.agent.tool_call_args',
  'gcp.vertex.agent.tool_response',
  // Logfire
  'prompt',
  'all_messages_events',
  'events',
  // LiveKit
  'lk.input_text',
  'lk.user_transcript',
  'lk.chat_ctx',
  'lk.user_input',
  'lk.function_tool.output',
  'lk.response.text',
  // MLflow
  'mlflow.spanInputs',
  'mlflow.spanOutputs',
  // Traceloop
  'traceloop.entity.input',
  'traceloop.entity.output',
  // smolagents
  'input.value',
  'output.value',
  // Pydantic AI
  'final_result',
  'pydantic_ai.all_messages',
  'gen_ai.system_instructions',
  // Pydantic, Pipecat
  'input',
  'output',
  // OpenTelemetry GenAI
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  // Genkit
  'genkit:input',
  'genkit:output',
  // Flue
  'flue.turn.input',
  'flue.turn.output',
  'flue.tool.arguments',
  'flue.tool.result',
  'flue.task.prompt',
  'flue.task.result',
  'flue.operation.result',
  'flue.workflow.payload',
  'flue.workflow.result',
];

const FILTERED_PREFIXES = [
  'gen_ai.prompt',
  'gen_ai.completion',
  'llm.input_messages',
  'llm.output_messages',
  'langfuse.trace.metadata',
  'langfuse.observation.metadata',
  'ai.telemetry.metadata',
];

/** Span attributes minus input/output and metadata keys, non-strings JSON-encoded. */
export function filteredAttributes(attributes: Attributes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (INPUT_OUTPUT_KEYS.includes(key) || FILTERED_PREFIXES.some((p) => key.startsWith(p))) continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

// Flattened message attributes name array slots directly ("gen_ai.prompt.9999.content"): the
// slots all rebuilt arrays may take together are capped.
const MAX_ARRAY_SLOTS = 10_001;
const DANGEROUS_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

class SlotBudget {
  private used = 0;
  private readonly lengths = new Map<string, number>();

  reserve(parts: readonly string[]): boolean {
    const pending = new Map<string, number>();
    let extra = 0;
    parts.forEach((segment, index) => {
      if (!/^\d+$/.test(segment)) return;
      const path = parts.slice(0, index).join('.');
      const before = pending.get(path) ?? this.lengths.get(path) ?? 0;
      const needed = Number(segment) + 1;
      if (needed > before) {
        extra += needed - before;
        pending.set(path, needed);
      }
    });
    if (this.used + extra > MAX_ARRAY_SLOTS) return false;
    this.used += extra;
    pending.forEach((length, path) => this.lengths.set(path, length));
    return true;
  }
}

/** Rebuilds `prefix.0.role`, `prefix.0.content`, ... into `[{role, content}]` (or an object). */
export function nestFlattened(input: Attributes, prefix: string): unknown {
  if (input[prefix]) return input[prefix];
  const budget = new SlotBudget();
  const keys: string[] = [];
  for (const full of Object.keys(input)) {
    const key = full.replace(`${prefix}.`, '');
    if (budget.reserve(key.split('.'))) keys.push(key);
  }
  const setPath = (target: any, path: string[], value: unknown): void => {
    let current = target;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      if (DANGEROUS_KEYS.has(key)) return;
      if (!(key in current)) current[key] = /^\d+$/.test(path[i + 1]!) ? [] : {};
      current = current[key];
    }
    const last = path[path.length - 1]!;
    if (!DANGEROUS_KEYS.has(last)) current[last] = value;
  };
  if (keys.some((key) => /^\d+\./.test(key))) {
    const result: any[] = [];
    for (const key of keys) {
      const parts = key.split('.');
      const index = Number(parts[0]);
      if (!result[index]) result[index] = Object.create(null);
      if (parts.length === 2) result[index][parts[1]!] = input[`${prefix}.${key}`];
      else setPath(result[index], parts.slice(1), input[`${prefix}.${key}`]);
    }
    return result;
  }
  const result: Record<string, unknown> = Object.create(null);
  for (const key of keys) {
    const parts = key.split('.');
    if (parts.length === 1) result[key] = input[`${prefix}.${key}`];
    else setPath(result, parts, input[`${prefix}.${key}`]);
  }
  return result;
}

/** Puts gen_ai.system_instructions in front as a system message, unless one is there already. */
function prependSystemInstructions(input: unknown, instructions: unknown): unknown {
  try {
    const messages = typeof input === 'string' ? JSON.parse(input) : input;
    if (!Array.isArray(messages)) return input;
    if (messages.some((m: Record<string, unknown>) => m?.['role'] === 'system')) return input;
    let content: string;
    try {
      const parsed = typeof instructions === 'string' ? JSON.parse(instructions) : instructions;
      content = Array.isArray(parsed)
        ? parsed.map((p: any) => (typeof p === 'object' && p?.content ? String(p.content) : String(p))).join('\n')
        : String(parsed);
    } catch {
      content = String(instructions);
    }
    const merged = [{ role: 'system', content }, ...messages];
    return typeof input === 'string' ? JSON.stringify(merged) : merged;
  } catch {
    return input;
  }
}

function genAiInputOutput(a: Attributes): { input: unknown; output: unknown } | null {
  let input = a['gen_ai.input.messages'];
  const output = a['gen_ai.output.messages'];
  if (input && a['gen_ai.system_instructions']) input = prependSystemInstructions(input, a['gen_ai.system_instructions']);
  if (input || output) return { input, output };
  const args = a['gen_ai.tool.call.arguments'];
  const result = a['gen_ai.tool.call.result'];
  if (args || result) return { input: args, output: result };
  return null;
}

interface SpanEvent {
  name?: unknown;
  attributes?: unknown;
}

export interface InputOutput {
  input: unknown;
  output: unknown;
}

export function inputAndOutput(events: readonly SpanEvent[], a: Attributes, scopeName: string, domain: 'trace' | 'observation' = 'observation'): InputOutput {
  let input: unknown = domain === 'trace' && a['langfuse.trace.input'] ? a['langfuse.trace.input'] : a['langfuse.observation.input'];
  let output: unknown = domain === 'trace' && a['langfuse.trace.output'] ? a['langfuse.trace.output'] : a['langfuse.observation.output'];
  if (input != null || output != null) return { input, output };

  if (scopeName === 'genkit-tracer') {
    const gi = parseJsonPayload(a['genkit:input']) ?? a['genkit:input'];
    const go = parseJsonPayload(a['genkit:output']) ?? a['genkit:output'];
    if (gi != null || go != null) return { input: gi?.messages ?? gi, output: go?.message ?? go };
    return { input: null, output: null };
  }

  if (scopeName === 'ai') {
    input = 'ai.prompt.messages' in a ? a['ai.prompt.messages'] : 'ai.prompt' in a ? a['ai.prompt'] : 'ai.toolCall.args' in a ? a['ai.toolCall.args'] : undefined;
    if ('ai.response.text' in a && 'ai.response.toolCalls' in a) {
      output = JSON.stringify({ role: 'assistant', content: a['ai.response.text'], tool_calls: a['ai.response.toolCalls'] });
    } else {
      const order = ['ai.result.text', 'ai.toolCall.result', 'ai.response.object', 'ai.result.object', 'ai.response.toolCalls', 'ai.result.toolCalls'];
      const key = 'ai.response.text' in a && a['ai.response.text'] ? 'ai.response.text' : order.find((k) => k in a);
      output = key === undefined ? undefined : a[key];
    }
    const genAi = genAiInputOutput(a);
    return { input: input ?? genAi?.input, output: output ?? genAi?.output };
  }

  if (scopeName === '@flue/opentelemetry') {
    const fi = a['flue.turn.input'] ?? a['flue.tool.arguments'] ?? a['flue.task.prompt'] ?? a['flue.workflow.payload'];
    const fo = a['flue.turn.output'] ?? a['flue.tool.result'] ?? a['flue.task.result'] ?? a['flue.operation.result'] ?? a['flue.workflow.result'];
    if (fi != null || fo != null) return { input: parseJsonPayload(fi) ?? fi ?? null, output: parseJsonPayload(fo) ?? fo ?? null };
  }

  // GenAI semantic conventions 1.37+: messages on an operation-details span event.
  for (const event of events.filter((e) => e?.name === 'gen_ai.client.inference.operation.details')) {
    const found = genAiInputOutput(attributesOf(event.attributes));
    if (found) return found;
  }

  const inputEvents = events.filter((e) => ['gen_ai.system.message', 'gen_ai.user.message', 'gen_ai.assistant.message', 'gen_ai.tool.message'].includes(e?.name as string));
  const outputEvents = events.filter((e) => e?.name === 'gen_ai.choice');
  if (inputEvents.length > 0 || outputEvents.length > 0) {
    const processedInput = inputEvents.length > 0 ? inputEvents.map((e) => ({ role: String(e.name).replace('gen_ai.', '').replace('.message', ''), ...attributesOf(e.attributes) })) : null;
    const processedOutput = outputEvents.length > 0 ? outputEvents.map((e) => attributesOf(e.attributes)) : null;
    return { input: processedInput, output: processedOutput && processedOutput.length === 1 ? processedOutput[0] : processedOutput };
  }

  // Older Semantic Kernel versions: gen_ai.content.prompt / gen_ai.content.completion events.
  const promptEvent = events.find((e) => e?.name === 'gen_ai.content.prompt');
  const completionEvent = events.find((e) => e?.name === 'gen_ai.content.completion');
  if (promptEvent?.attributes || completionEvent?.attributes) {
    const pa = attributesOf(promptEvent?.attributes);
    const ca = attributesOf(completionEvent?.attributes);
    const fromPrompt = inputAndOutput([], pa, scopeName).input;
    const fromCompletion = inputAndOutput([], ca, scopeName).output;
    return { input: fromPrompt || pa, output: fromCompletion || ca };
  }

  input = a['gcp.vertex.agent.llm_request'];
  output = a['gcp.vertex.agent.llm_response'];
  if (input === '{}' || !input) input = a['gcp.vertex.agent.tool_call_args'];
  if (output === '{}' || !output) output = a['gcp.vertex.agent.tool_response'];
  if (input || output) return { input, output };

  // Logfire: `prompt` and `all_messages_events`.
  input = a['prompt'];
  output = a['all_messages_events'];
  if (input || output) return { input, output };

  input = a['lk.input_text'] ?? a['lk.user_transcript'] ?? a['lk.chat_ctx'];
  output = a['lk.function_tool.output'] || a['lk.response.text'];
  if (input || output) return { input, output };

  // Logfire: one `events` array of GenAI events.
  const eventsArray = a['events'];
  if (typeof eventsArray === 'string' || Array.isArray(eventsArray)) {
    let list: any[] = Array.isArray(eventsArray) ? eventsArray : [];
    if (typeof eventsArray === 'string') {
      try {
        list = JSON.parse(eventsArray);
      } catch {
        list = [];
      }
    }
    if (Array.isArray(list)) {
      const choice = list.find((e) => e?.['event.name'] === 'gen_ai.choice');
      const rest = list.filter((e) => e?.['event.name'] !== 'gen_ai.choice');
      if (choice || rest.length > 0) return { input: rest.length > 0 ? rest : null, output: choice || null };
    }
  }

  for (const [i, o] of [
    ['mlflow.spanInputs', 'mlflow.spanOutputs'],
    ['traceloop.entity.input', 'traceloop.entity.output'],
    ['input.value', 'output.value'],
    ['input', 'output'],
  ] as const) {
    input = a[i];
    output = a[o];
    if (input || output) return { input, output };
  }

  if (scopeName === 'pydantic-ai') {
    input = a['pydantic_ai.all_messages'] ?? null;
    output = a['final_result'] ?? null;
    if (input && a['gen_ai.system_instructions']) input = prependSystemInstructions(input, a['gen_ai.system_instructions']);
    if (input || output) return { input, output };
  }

  input = a['tool_arguments'];
  output = a['tool_response'];
  if (input || output) return { input, output };

  const pick = (prefix: string): Attributes => Object.fromEntries(Object.entries(a).filter(([k]) => k.startsWith(prefix)));
  const traceloopIn = pick('gen_ai.prompt');
  const traceloopOut = pick('gen_ai.completion');
  if (Object.keys(traceloopIn).length > 0 || Object.keys(traceloopOut).length > 0) {
    return { input: nestFlattened(traceloopIn, 'gen_ai.prompt'), output: nestFlattened(traceloopOut, 'gen_ai.completion') };
  }
  const oiIn = pick('llm.input_messages');
  const oiOut = pick('llm.output_messages');
  if (Object.keys(oiIn).length > 0 || Object.keys(oiOut).length > 0) {
    return { input: nestFlattened(oiIn, 'llm.input_messages'), output: nestFlattened(oiOut, 'llm.output_messages') };
  }

  return genAiInputOutput(a) ?? { input: null, output: null };
}

