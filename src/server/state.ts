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
}

export const STATE_SCHEMA_VERSION = 1;
