// What the local server keeps, as the Langfuse server keeps it: the project and its keys, prompt
// versions and model definitions (its Postgres rows), and the traffic it records: traces,
// observations and scores (its ClickHouse `traces`, `observations` and `scores` tables).
// Ingestion (batch and OpenTelemetry) produces the traffic records; the store keeps every record
// (src/server/store), with the ingestion events each was built from beside it (not part of the
// record: see src/server/ingest/event-log.ts); the read API answers from them.
// Times are ISO 8601 strings in UTC with milliseconds ("2026-01-01T00:00:00.000Z"), so they sort
// as text.
import type { ModelUnit, PricingTier } from '../core/models/types.js';

export type ObservationType = 'GENERATION' | 'SPAN' | 'EVENT' | 'AGENT' | 'TOOL' | 'CHAIN' | 'RETRIEVER' | 'EVALUATOR' | 'EMBEDDING' | 'GUARDRAIL';

export type ObservationLevel = 'DEBUG' | 'DEFAULT' | 'WARNING' | 'ERROR';

export type ScoreDataType = 'NUMERIC' | 'BOOLEAN' | 'CATEGORICAL' | 'CORRECTION' | 'TEXT';

export type ScoreSource = 'API' | 'ANNOTATION' | 'EVAL';

export interface TraceRecord {
  id: string;
  projectId: string;
  timestamp: string;
  name: string | null;
  userId: string | null;
  sessionId: string | null;
  release: string | null;
  version: string | null;
  /** Normalised as the server does ("default" when absent or invalid). */
  environment: string;
  public: boolean;
  bookmarked: boolean;
  /** The sorted union of every event's tags (the service sorts and de-duplicates them). */
  tags: string[];
  /** Values as the service returns them: each JSON-parsed when its stored text parses. */
  metadata: Record<string, unknown>;
  /** The last truthy input (and output) of the events in time order, as sent (the service keeps their JSON text). */
  input: unknown;
  output: unknown;
  createdAt: string;
  updatedAt: string;
}

export interface ObservationRecord {
  id: string;
  projectId: string;
  traceId: string | null;
  parentObservationId: string | null;
  type: ObservationType;
  name: string | null;
  environment: string;
  startTime: string;
  endTime: string | null;
  completionStartTime: string | null;
  level: ObservationLevel;
  statusMessage: string | null;
  version: string | null;
  /**
   * The last truthy input (and output) of the events in time order, as sent (the service keeps
   * their JSON text), with tool definitions from the metadata moved into the input.
   */
  input: unknown;
  output: unknown;
  /** Values as the service returns them (each JSON-parsed when its stored text parses), tool definitions taken out. */
  metadata: Record<string, unknown>;
  /** The model name the client sent; matching runs on it. */
  providedModelName: string | null;
  /** The id of the model definition matched at ingestion (project or built-in), if any. */
  internalModelId: string | null;
  modelParameters: Record<string, unknown> | null;
  /**
   * What the client sent, before inference, as the service keeps it: OpenAI usage shapes split
   * into input/output and their details, legacy `usage` merged in, only numbers >= 0 (costs: numbers).
   */
  providedUsageDetails: Record<string, number>;
  providedCostDetails: Record<string, number>;
  /** What the server keeps after normalisation and inference (tokenized when nothing was sent). */
  usageDetails: Record<string, number>;
  costDetails: Record<string, number>;
  /** costDetails.total, or null when nothing was priced. Costs are cut to 12 decimals, as the service's Decimal64(12). */
  totalCost: number | null;
  usagePricingTierId: string | null;
  usagePricingTierName: string | null;
  promptId: string | null;
  promptName: string | null;
  promptVersion: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ScoreRecord {
  id: string;
  projectId: string;
  timestamp: string;
  name: string;
  /** Numeric for NUMERIC and BOOLEAN (0/1); null for CATEGORICAL, TEXT and CORRECTION. */
  value: number | null;
  /** The label of CATEGORICAL, TEXT and CORRECTION scores; "True"/"False" for BOOLEAN; null for NUMERIC. */
  stringValue: string | null;
  dataType: ScoreDataType;
  source: ScoreSource;
  traceId: string | null;
  observationId: string | null;
  sessionId: string | null;
  datasetRunId: string | null;
  comment: string | null;
  metadata: Record<string, unknown>;
  environment: string;
  /** Always null here: a score naming a config is dropped, as the service drops one naming a config the project lacks. */
  configId: string | null;
  queueId: string | null;
  /** Set by the service's UI annotations only; null for what the API and ingestion store. */
  authorUserId: string | null;
  /** The trace of the evaluator run that made the score, as ingestion sent it (records stored before it was kept lack it). */
  executionTraceId?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ApiKeyRecord {
  id: string;
  publicKey: string;
  secretKey: string;
  createdAt: string;
}

export interface ProjectRecord {
  id: string;
  name: string;
  organization: { id: string; name: string };
  metadata: Record<string, unknown>;
  createdAt: string;
}

export type StoredChatItem = { role: string; content: string } | { type: 'placeholder'; name: string };

/** One prompt version, as the server's `prompts` table row (API.md 4.4: the raw row POST returns). */
export interface PromptRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  projectId: string;
  createdBy: string;
  prompt: string | StoredChatItem[];
  name: string;
  version: number;
  type: 'text' | 'chat';
  /** Legacy column; null for versions created through the v2 API. GET derives it from the labels. */
  isActive: boolean | null;
  config: unknown;
  /** De-duplicated, in the order sent; one set per prompt (a create with other tags sets them on every version). */
  tags: string[];
  /** In the order the server keeps them (a label PATCH puts the new ones first). */
  labels: string[];
  commitMessage: string | null;
}

/**
 * One reference from a prompt version to another prompt, as the server's `prompt_dependencies`
 * row: by version (childVersion set) or by label (childLabel set). It goes with its parent version.
 */
export interface PromptDependencyRecord {
  id: string;
  projectId: string;
  parentId: string;
  childName: string;
  childVersion: number | null;
  childLabel: string | null;
  createdAt: string;
}

/** A project-owned model definition, as the server's `models` row plus its tiers and prices. */
export interface ModelRecord {
  id: string;
  projectId: string;
  modelName: string;
  matchPattern: string;
  startDate: string | null;
  unit: ModelUnit;
  /** Legacy price columns: set when the model was created with flat prices. */
  inputPrice: number | null;
  outputPrice: number | null;
  totalPrice: number | null;
  tokenizerId: 'openai' | 'claude' | null;
  tokenizerConfig: unknown;
  createdAt: string;
  updatedAt: string;
  pricingTiers: PricingTier[];
}
