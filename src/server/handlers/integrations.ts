// The blob-storage integration routes (web/src/pages/api/public/integrations/blob-storage/), for the
// organization's key only: GET lists the organization's integrations, PUT creates or updates the
// project's, GET /{id} says its sync status and DELETE /{id} removes it. Bodies, defaults and
// messages are Langfuse's (features/public-api/types/blob-storage-integrations.ts,
// features/blobstorage-integration/service.ts, validation.ts and deriveSyncStatus.ts). The secret
// access key is kept and never answered. `llmobs server` runs the enabled integration's export.
import { z } from 'zod';
import { baseError, invalidRequestData, notFound, zodIssues } from '../http/errors.js';
import type { Route } from '../http/router.js';
import type { BlobIntegrationRecord } from '../store/integrations.js';

const FIELD_GROUPS = ['core', 'basic', 'time', 'io', 'metadata', 'model', 'usage', 'prompt', 'metrics', 'trace_context', 'tools'] as const;
const PUBLIC_SOURCE = { EVENTS: 'OBSERVATIONS_V2', TRACES_OBSERVATIONS: 'LEGACY_TRACES_OBSERVATIONS', TRACES_OBSERVATIONS_EVENTS: 'LEGACY_TRACES_AND_ENRICHED_OBSERVATIONS' } as const;
const INTERNAL_SOURCE = { OBSERVATIONS_V2: 'EVENTS', LEGACY_TRACES_OBSERVATIONS: 'TRACES_OBSERVATIONS', LEGACY_TRACES_AND_ENRICHED_OBSERVATIONS: 'TRACES_OBSERVATIONS_EVENTS' } as const;
const MAX_START_AHEAD_MS = 27 * 60 * 60 * 1000;
const AZURE_CONTAINER = /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/;
const MAX_RUN_AGE_MS = 2 * 60 * 60 * 1000;

const PutBody = z
  .object({
    projectId: z.string(),
    type: z.enum(['S3', 'S3_COMPATIBLE', 'AZURE_BLOB_STORAGE']),
    bucketName: z.string().min(1),
    endpoint: z.string().nullable().optional(),
    region: z.string(),
    accessKeyId: z.string().nullable().optional(),
    secretAccessKey: z.string().nullable().optional(),
    prefix: z
      .string()
      .optional()
      .default('')
      .refine((value) => value === '' || value.endsWith('/'), 'Prefix must be empty or end with a forward slash'),
    exportFrequency: z.enum(['every_20_minutes', 'hourly', 'daily', 'weekly']),
    enabled: z.boolean(),
    forcePathStyle: z.boolean(),
    fileType: z.enum(['JSON', 'CSV', 'JSONL', 'PARQUET']),
    exportMode: z.enum(['FULL_HISTORY', 'FROM_TODAY', 'FROM_CUSTOM_DATE']),
    exportStartDate: z.coerce
      .date()
      .refine((d) => d.getTime() <= Date.now() + MAX_START_AHEAD_MS, { message: 'Export start date must not be in the future (27 h tolerance for timezone differences)' })
      .nullable()
      .optional(),
    compressed: z.boolean().optional().default(true),
    exportSource: z.enum(['LEGACY_TRACES_OBSERVATIONS', 'OBSERVATIONS_V2', 'LEGACY_TRACES_AND_ENRICHED_OBSERVATIONS']).nullable().optional(),
    exportFieldGroups: z.array(z.enum(FIELD_GROUPS)).nullable().optional(),
  })
  .strict()
  .refine((data) => !(data.exportMode === 'FROM_CUSTOM_DATE' && !data.exportStartDate), { message: 'exportStartDate is required when exportMode is FROM_CUSTOM_DATE', path: ['exportStartDate'] })
  .superRefine((data, ctx) => {
    if (data.type === 'AZURE_BLOB_STORAGE' && !AZURE_CONTAINER.test(data.bucketName)) {
      ctx.addIssue({ code: 'custom', message: 'Azure container names must be 3-63 characters, lowercase letters, numbers, and hyphens only. Must start and end with a letter or number, no consecutive hyphens.', path: ['bucketName'] });
    }
    if (data.exportSource == null && data.exportFieldGroups != null) {
      ctx.addIssue({ code: 'custom', message: 'exportSource is required when exportFieldGroups is provided', path: ['exportSource'] });
    } else if (data.exportFieldGroups != null && !data.exportFieldGroups.includes('core')) {
      ctx.addIssue({ code: 'custom', message: 'The Core field group is required', path: ['exportFieldGroups'] });
    }
  });

/** The answer for an integration: everything but the secret, the source under its public name. */
function view(record: BlobIntegrationRecord) {
  const { runStartedAt: _running, exportSource, ...rest } = record;
  return {
    id: record.projectId,
    projectId: rest.projectId,
    type: rest.type,
    bucketName: rest.bucketName,
    endpoint: rest.endpoint,
    region: rest.region,
    accessKeyId: rest.accessKeyId,
    prefix: rest.prefix,
    exportFrequency: rest.exportFrequency,
    enabled: rest.enabled,
    forcePathStyle: rest.forcePathStyle,
    fileType: rest.fileType,
    exportMode: rest.exportMode,
    exportStartDate: rest.exportStartDate,
    compressed: rest.compressed,
    exportSource: PUBLIC_SOURCE[exportSource],
    exportFieldGroups: rest.exportFieldGroups,
    nextSyncAt: rest.nextSyncAt,
    lastSyncAt: rest.lastSyncAt,
    lastError: rest.lastError,
    lastErrorAt: rest.lastErrorAt,
    createdAt: rest.createdAt,
    updatedAt: rest.updatedAt,
  };
}

/** deriveSyncStatus: disabled → error → running (under 2 h) → queued → idle → up_to_date. */
export function syncStatus(record: BlobIntegrationRecord, now: Date): 'disabled' | 'error' | 'running' | 'queued' | 'idle' | 'up_to_date' {
  if (!record.enabled) return 'disabled';
  if (record.lastError) return 'error';
  if (record.runStartedAt && now.getTime() - Date.parse(record.runStartedAt) < MAX_RUN_AGE_MS) return 'running';
  if (record.nextSyncAt && Date.parse(record.nextSyncAt) <= now.getTime()) return 'queued';
  if (!record.lastSyncAt) return 'idle';
  return 'up_to_date';
}

const invalid = (message: string) => baseError(400, 'InvalidRequestError', message);

export const integrationRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/integrations\/blob-storage$/,
    auth: 'organization',
    methods: {
      GET: (_request, tx) => ({ status: 200, body: { data: tx.integrations.list().map(view) } }),
      PUT: (request, tx, context) => {
        const parsed = PutBody.safeParse(request.body);
        if (!parsed.success) throw invalidRequestData(zodIssues(parsed.error.issues as never));
        const data = parsed.data;
        const project = tx.project.get()!;
        if (data.projectId !== project.id) throw notFound('Project not found');
        const accessKeyId = data.accessKeyId?.trim() || null;
        const secret = data.secretAccessKey?.trim() || null;
        // A self-hosted S3 integration may use the host's credentials, as Langfuse allows.
        const hostCredentials = data.type === 'S3';
        if (!hostCredentials && !accessKeyId) throw invalid('Access Key ID and Secret Access Key are required');
        if (data.endpoint) {
          let url: URL | undefined;
          try {
            url = new URL(data.endpoint);
          } catch {
            url = undefined;
          }
          if (!url || !/^https?:$/.test(url.protocol)) throw invalid('Invalid blob storage endpoint: Invalid URL');
        }
        const existing = tx.integrations.get(project.id);
        if (!existing && !secret && !(hostCredentials && (!accessKeyId || !secret))) throw invalid('Secret access key is required for new configuration');
        const now = context.now();
        const modeChanged = existing !== undefined && existing.exportMode !== data.exportMode;
        const startDate = data.exportMode === 'FROM_TODAY' ? now : data.exportMode === 'FROM_CUSTOM_DATE' ? (data.exportStartDate ?? now) : null;
        const record: BlobIntegrationRecord = {
          projectId: project.id,
          type: data.type,
          bucketName: data.bucketName,
          endpoint: data.endpoint || null,
          region: data.region,
          accessKeyId,
          prefix: data.prefix,
          exportFrequency: data.exportFrequency,
          enabled: data.enabled,
          forcePathStyle: data.forcePathStyle,
          fileType: data.fileType,
          exportMode: data.exportMode,
          exportStartDate: startDate?.toISOString() ?? null,
          compressed: data.compressed,
          exportSource: data.exportSource ? INTERNAL_SOURCE[data.exportSource] : (existing?.exportSource ?? 'EVENTS'),
          exportFieldGroups: data.exportFieldGroups ?? existing?.exportFieldGroups ?? null,
          nextSyncAt: modeChanged || (existing?.lastError && data.enabled) ? now.toISOString() : (existing?.nextSyncAt ?? null),
          lastSyncAt: modeChanged ? null : (existing?.lastSyncAt ?? null),
          lastError: existing?.lastError ?? null,
          lastErrorAt: existing?.lastErrorAt ?? null,
          runStartedAt: null,
          createdAt: existing?.createdAt ?? now.toISOString(),
          updatedAt: now.toISOString(),
        };
        tx.integrations.put(record, secret ?? (existing ? undefined : null));
        return { status: 200, body: view(record) };
      },
    },
  },
  {
    pattern: /^\/api\/public\/integrations\/blob-storage\/([^/]+)$/,
    auth: 'organization',
    methods: {
      GET: (request, tx, context) => {
        const record = tx.integrations.get(request.params[0]!);
        if (!record) throw notFound('Blob storage integration not found');
        return {
          status: 200,
          body: { id: record.projectId, projectId: record.projectId, syncStatus: syncStatus(record, context.now()), enabled: record.enabled, lastSyncAt: record.lastSyncAt, nextSyncAt: record.nextSyncAt, lastError: record.lastError, lastErrorAt: record.lastErrorAt },
        };
      },
      DELETE: (request, tx) => {
        if (!tx.integrations.get(request.params[0]!)) throw notFound('Blob storage integration not found');
        tx.integrations.delete(request.params[0]!);
        return { status: 200, body: { message: 'Blob storage integration successfully deleted' } };
      },
    },
  },
];
