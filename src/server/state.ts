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

export interface ServerState {
  schemaVersion: 1;
  project: ProjectRecord;
  apiKeys: ApiKeyRecord[];
  /** Every version of every prompt. Absent in state files written before prompts existed. */
  prompts: PromptRecord[];
}

export const STATE_SCHEMA_VERSION = 1;
