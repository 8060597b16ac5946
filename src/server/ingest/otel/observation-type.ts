// Which observation type a span becomes (Langfuse's ObservationTypeMapper registry): the first
// rule, in priority order, that applies and yields a type; SPAN otherwise.
import type { ObservationType } from '../../records.js';
import { type Attributes, hasMeaningfulValue } from './values.js';

const TYPES = new Set<string>(['GENERATION', 'SPAN', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL']);

interface Scope {
  name?: unknown;
  version?: unknown;
}

interface Rule {
  applies(attributes: Attributes, resource: Attributes, scope: Scope | undefined, spanName: string): boolean;
  type(attributes: Attributes, resource: Attributes, scope: Scope | undefined, spanName: string): string | null;
}

const valid = (type: string | null | undefined): ObservationType | null => (type && TYPES.has(type.toUpperCase()) ? (type as ObservationType) : null);

/** A lookup of one attribute's value in a table. */
function byAttribute(key: string, table: Record<string, string>): Rule {
  return {
    applies: (a) => key in a && hasMeaningfulValue(a[key]),
    type: (a) => (Object.prototype.hasOwnProperty.call(table, a[key] as string) ? table[a[key] as string]! : null),
  };
}

const GENERATION_ATTRIBUTES = [
  'langfuse.observation.model.name',
  'langfuse.observation.cost_details',
  'langfuse.observation.usage_details',
  'langfuse.observation.completion_start_time',
  'langfuse.observation.model.parameters',
  'langfuse.observation.prompt.name',
  'langfuse.observation.prompt.version',
];

const AI_SDK_GENERATION = ['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream'];
const AI_SDK_EMBEDDING = ['ai.embedMany.doEmbed', 'ai.embed.doEmbed'];

/** Vercel AI SDK: `operation.name` starts with one of the prefixes, or `ai.operationId` is one. */
function aiSdkOperation(a: Attributes, prefixes: string[]): boolean {
  const name = a['operation.name'];
  if (hasMeaningfulValue(name) && prefixes.some((p) => String(name).startsWith(p))) return true;
  const id = a['ai.operationId'];
  return hasMeaningfulValue(id) && prefixes.includes(id as string);
}

const RULES: Rule[] = [
  // Python SDK <= 3.3.0 marked generations as spans; generation attributes reveal them.
  {
    applies: (a, r, s) => a['langfuse.observation.type'] === 'span' && s?.name === 'langfuse-sdk' && r['telemetry.sdk.language'] === 'python',
    type: (a, _r, s) => {
      const version = s?.version;
      if (version) {
        const [major = NaN, minor = NaN] = String(version).split('.').map(Number);
        if (major > 3 || (major === 3 && minor > 3)) return null;
      }
      return Object.keys(a).some((k) => GENERATION_ATTRIBUTES.includes(k)) ? 'GENERATION' : null;
    },
  },
  byAttribute('langfuse.observation.type', {
    span: 'SPAN',
    generation: 'GENERATION',
    event: 'EVENT',
    embedding: 'EMBEDDING',
    agent: 'AGENT',
    tool: 'TOOL',
    chain: 'CHAIN',
    retriever: 'RETRIEVER',
    guardrail: 'GUARDRAIL',
    evaluator: 'EVALUATOR',
  }),
  byAttribute('openinference.span.kind', {
    CHAIN: 'CHAIN',
    RETRIEVER: 'RETRIEVER',
    LLM: 'GENERATION',
    EMBEDDING: 'EMBEDDING',
    AGENT: 'AGENT',
    TOOL: 'TOOL',
    GUARDRAIL: 'GUARDRAIL',
    EVALUATOR: 'EVALUATOR',
  }),
  byAttribute('gen_ai.operation.name', {
    chat: 'GENERATION',
    completion: 'GENERATION',
    text_completion: 'GENERATION',
    generate_content: 'GENERATION',
    generate: 'GENERATION',
    embeddings: 'EMBEDDING',
    invoke_agent: 'AGENT',
    create_agent: 'AGENT',
    execute_tool: 'TOOL',
  }),
  byAttribute('genkit:metadata:subtype', {
    'background-model': 'GENERATION',
    model: 'GENERATION',
    embedder: 'EMBEDDING',
    tool: 'TOOL',
    'tool.v2': 'TOOL',
    retriever: 'RETRIEVER',
    evaluator: 'EVALUATOR',
  }),
  {
    applies: (a) =>
      ['langfuse.observation.model.name', 'ai.model.id', 'gen_ai.request.model', 'gen_ai.response.model'].some((k) => hasMeaningfulValue(a[k])) &&
      aiSdkOperation(a, [...AI_SDK_GENERATION, ...AI_SDK_EMBEDDING]),
    type: (a) => (aiSdkOperation(a, AI_SDK_GENERATION) ? 'GENERATION' : aiSdkOperation(a, AI_SDK_EMBEDDING) ? 'EMBEDDING' : null),
  },
  {
    applies: (a) => {
      const name = a['operation.name'];
      const id = a['ai.operationId'];
      const isAi = (hasMeaningfulValue(name) && String(name).startsWith('ai.')) || (hasMeaningfulValue(id) && String(id).startsWith('ai.'));
      return isAi && !aiSdkOperation(a, [...AI_SDK_GENERATION, ...AI_SDK_EMBEDDING]);
    },
    type: (a) => (aiSdkOperation(a, ['ai.toolCall']) ? 'TOOL' : null),
  },
  { applies: (a) => hasMeaningfulValue(a['gen_ai.tool.name']) || hasMeaningfulValue(a['gen_ai.tool.call.id']), type: () => 'TOOL' },
  {
    applies: (a) => ['flue.tool.name', 'flue.tool.call_id', 'flue.task.id', 'flue.task.agent'].some((k) => hasMeaningfulValue(a[k])),
    type: (a) => (hasMeaningfulValue(a['flue.tool.name']) || hasMeaningfulValue(a['flue.tool.call_id']) ? 'TOOL' : 'AGENT'),
  },
  {
    applies: (_a, _r, s, name) => s?.name === 'livekit-agents' && ['agent_turn', 'start_agent_activity', 'function_tool'].includes(name),
    type: (_a, _r, _s, name) => (name === 'agent_turn' || name === 'start_agent_activity' ? 'AGENT' : name === 'function_tool' ? 'TOOL' : null),
  },
  {
    applies: (a) => ['langfuse.observation.model.name', 'gen_ai.request.model', 'gen_ai.response.model', 'llm.model_name', 'model'].some((k) => hasMeaningfulValue(a[k])),
    type: () => 'GENERATION',
  },
];

export function observationTypeOf(attributes: Attributes, resource: Attributes, scope: Scope | undefined, spanName: string): ObservationType {
  for (const rule of RULES) {
    if (!rule.applies(attributes, resource, scope, spanName)) continue;
    const type = valid(rule.type(attributes, resource, scope, spanName));
    if (type) return type;
  }
  return 'SPAN';
}
