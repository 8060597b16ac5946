// The state file of servers before the database (`state.json`, schema 1): one JSON document with
// the whole state. A data directory that has one is imported into the database on first start
// (src/server/store/import-state.ts); the file is then kept beside it as a backup.
import type { ApiKeyRecord, ModelRecord, ProjectRecord, PromptDependencyRecord, PromptRecord } from './records.js';

export interface ServerState {
  schemaVersion: 1;
  project: ProjectRecord;
  apiKeys: ApiKeyRecord[];
  /** Every version of every prompt. Absent in state files written before prompts existed. */
  prompts?: PromptRecord[];
  /** The references each prompt version was created with. Absent in state files written before them. */
  promptDependencies?: PromptDependencyRecord[];
  /** The project's own model definitions. Absent in state files written before models existed. */
  models?: ModelRecord[];
}

export const STATE_SCHEMA_VERSION = 1;
export const STATE_FILE = 'state.json';
