import type { ModelUnit, PricingTier } from '../core/models/types.js';

// What the local server keeps. One JSON document, written whole and atomically on every change.

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
  tags: string[];
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

export interface ServerState {
  schemaVersion: 1;
  project: ProjectRecord;
  apiKeys: ApiKeyRecord[];
  /** Every version of every prompt. Absent in state files written before prompts existed. */
  prompts: PromptRecord[];
  /** The references each prompt version was created with. Absent in state files written before them. */
  promptDependencies: PromptDependencyRecord[];
  /** The project's own model definitions. Absent in state files written before models existed. */
  models: ModelRecord[];
}

export const STATE_SCHEMA_VERSION = 1;

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
