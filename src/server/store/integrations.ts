// The organization's key and the project's blob-storage integration (Langfuse's
// BlobStorageIntegration row): settings and sync state as one JSON record; the store's secret in a
// column of its own, read only by the export that needs it.
import type { ApiKeyRecord } from '../records.js';
import type { Statements } from './sqlite.js';

export interface BlobIntegrationRecord {
  projectId: string;
  type: 'S3' | 'S3_COMPATIBLE' | 'AZURE_BLOB_STORAGE';
  bucketName: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  prefix: string;
  exportFrequency: 'every_20_minutes' | 'hourly' | 'daily' | 'weekly';
  enabled: boolean;
  forcePathStyle: boolean;
  fileType: 'JSON' | 'CSV' | 'JSONL' | 'PARQUET';
  exportMode: 'FULL_HISTORY' | 'FROM_TODAY' | 'FROM_CUSTOM_DATE';
  exportStartDate: string | null;
  compressed: boolean;
  /** The database name (EVENTS ...); the API shows the public one. */
  exportSource: 'EVENTS' | 'TRACES_OBSERVATIONS' | 'TRACES_OBSERVATIONS_EVENTS';
  exportFieldGroups: string[] | null;
  nextSyncAt: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  runStartedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export class IntegrationStore {
  constructor(private readonly sql: Statements) {}

  organizationKeys(): ApiKeyRecord[] {
    return this.sql
      .rows<{ id: string; public_key: string; secret_key: string; created_at: string }>('SELECT id, public_key, secret_key, created_at FROM organization_keys ORDER BY rowid')
      .map((row) => ({ id: row.id, publicKey: row.public_key, secretKey: row.secret_key, createdAt: row.created_at }));
  }

  addOrganizationKey(key: ApiKeyRecord): void {
    this.sql.run('INSERT INTO organization_keys (id, public_key, secret_key, created_at) VALUES (?, ?, ?, ?)', key.id, key.publicKey, key.secretKey, key.createdAt);
  }

  list(): BlobIntegrationRecord[] {
    return this.sql.rows<{ record: string }>('SELECT record FROM blob_storage_integrations ORDER BY project_id').map((row) => JSON.parse(row.record) as BlobIntegrationRecord);
  }

  get(projectId: string): BlobIntegrationRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM blob_storage_integrations WHERE project_id = ?', projectId);
    return row && (JSON.parse(row.record) as BlobIntegrationRecord);
  }

  secret(projectId: string): string | null {
    return this.sql.row<{ secret_access_key: string | null }>('SELECT secret_access_key FROM blob_storage_integrations WHERE project_id = ?', projectId)?.secret_access_key ?? null;
  }

  /** `secret`: undefined keeps the stored one. */
  put(record: BlobIntegrationRecord, secret: string | null | undefined): void {
    this.sql.run(
      'INSERT INTO blob_storage_integrations (project_id, record, secret_access_key) VALUES (?, ?, ?) ON CONFLICT (project_id) DO UPDATE SET record = excluded.record, secret_access_key = CASE WHEN ? THEN excluded.secret_access_key ELSE secret_access_key END',
      record.projectId,
      JSON.stringify(record),
      secret ?? null,
      secret === undefined ? 0 : 1,
    );
  }

  delete(projectId: string): void {
    this.sql.run('DELETE FROM blob_storage_integrations WHERE project_id = ?', projectId);
  }
}
