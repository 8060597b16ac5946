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

export interface ServerState {
  schemaVersion: 1;
  project: ProjectRecord;
  apiKeys: ApiKeyRecord[];
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
