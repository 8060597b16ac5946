// llmobs export integration get|set|status|delete: Langfuse's own scheduled export to blob storage
// (Project Settings > Integrations > Blob Storage), configured through its API on a server that
// has it: Langfuse's paid plans, self-hosted, or `llmobs server`. It takes an organization key.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

const ACTIONS = ['get', 'set', 'status', 'delete'] as const;

export default defineCommand({
  name: 'integration',
  summary: 'see and configure the server\'s own scheduled blob-storage export (Langfuse\'s integration; needs an organization key)',
  args: [
    { name: '<action>', help: 'get (list), set, status or delete' },
    { name: '[project]', help: 'the project id (set, status, delete)' },
  ],
  flags: [
    { flags: '--bucket <name>', help: 'set: the bucket (or Azure container)' },
    { flags: '--type <type>', help: 'set: S3, S3_COMPATIBLE or AZURE_BLOB_STORAGE (default: S3, or S3_COMPATIBLE with --endpoint)', choices: ['S3', 'S3_COMPATIBLE', 'AZURE_BLOB_STORAGE'] },
    { flags: '--endpoint <url>', help: 'set: the store\'s endpoint (S3-compatible stores)' },
    { flags: '--region <region>', help: 'set: the bucket\'s region (default: auto)' },
    { flags: '--access-key-id <id>', help: 'set: the store\'s access key id' },
    { flags: '--secret-access-key-stdin', help: 'set: read the store\'s secret access key from stdin' },
    { flags: '--prefix <prefix>', help: 'set: the key prefix, ending with / (default: none)' },
    { flags: '--interval <interval>', help: 'set: 20m, hourly (default), daily or weekly', choices: ['20m', 'hourly', 'daily', 'weekly'] },
    { flags: '--format <format>', help: 'set: parquet (default), jsonl, csv or json', choices: ['parquet', 'jsonl', 'csv', 'json'] },
    { flags: '--no-gzip', help: 'set: the text formats uncompressed' },
    { flags: '--from <date>', help: 'set: start at this date (FROM_CUSTOM_DATE); default: the full history' },
    { flags: '--fields <groups>', help: 'set: the observation field groups (core is always exported)' },
    { flags: '--force-path-style', help: 'set: path-style bucket addresses' },
    { flags: '--disabled', help: 'set: keep the configuration but do not export' },
    { flags: '-y, --yes', help: 'delete: do not ask for confirmation (required without a terminal)' },
  ],
  notes: `
  These routes take an organization-scoped API key; a project key is refused
  with 403 (exit 7). On llmobs server it is the "Organization key" it prints.
  set sends the whole configuration (what is not given takes its default); the
  secret access key is read from stdin and never printed.`,
  examples: [
    'llmobs export integration get',
    'printf %s "$AWS_SECRET_ACCESS_KEY" | llmobs export integration set proj-1 --bucket lake --region eu-west-1 --access-key-id AKIA... --secret-access-key-stdin',
    'llmobs export integration status proj-1',
    'llmobs export integration delete proj-1 --yes',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, api, { readSecret }, { INTERVAL_NAMES }, { GROUP_NAMES }, { timeOption }] = await Promise.all([import('zod'), import('../../api/integrations.js'), import('../../io/stdin.js'), import('../../core/blob-export/layout.js'), import('../../core/observations/fields.js'), import('../observations/filters.js')]);
    const opts = parseOptions(
      z.object({
        action: z.enum(ACTIONS, { error: `must be one of ${ACTIONS.join(', ')}` }),
        project: z.string().min(1).optional(),
        bucket: z.string().min(1).optional(),
        type: z.enum(['S3', 'S3_COMPATIBLE', 'AZURE_BLOB_STORAGE']).optional(),
        endpoint: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
        region: z.string().min(1).default('auto'),
        accessKeyId: z.string().min(1).optional(),
        secretAccessKeyStdin: z.boolean().default(false),
        prefix: z.string().refine((p) => p === '' || p.endsWith('/'), 'must be empty or end with /').default(''),
        interval: z.string().default('hourly'),
        format: z.enum(['parquet', 'jsonl', 'csv', 'json']).default('parquet'),
        gzip: z.boolean().default(true),
        from: timeOption(ctx.now()).optional(),
        fields: z.array(z.string()).optional(),
        forcePathStyle: z.boolean().default(false),
        disabled: z.boolean().default(false),
        yes: z.boolean().default(false),
      }),
      { ...given, action: args[0], project: args[1] },
    );
    const needsProject = opts.action !== 'get';
    if (needsProject && !opts.project) throw new UsageError(`${opts.action} needs the project id: llmobs export integration ${opts.action} PROJECT`);
    if (opts.action === 'set' && !opts.bucket) throw new UsageError('set needs --bucket');
    if (opts.action === 'delete' && !opts.yes && !ctx.interactive) throw new UsageError(`refusing to delete the integration of ${opts.project} without confirmation`, { hint: 'Pass --yes when not on a terminal.' });
    const groups = (opts.fields ?? []).flatMap((f) => f.split(',')).map((f) => f.trim()).filter(Boolean);
    const badGroup = groups.find((g) => !(GROUP_NAMES as readonly string[]).includes(g) && g !== 'tools');
    if (badGroup) throw new UsageError(`--fields: unknown field group "${badGroup}": use ${GROUP_NAMES.join(', ')}`);
    const secret = opts.action === 'set' && opts.secretAccessKeyStdin ? await readSecret(ctx.io.stdin) : undefined;
    if (opts.secretAccessKeyStdin && !secret) throw new UsageError('--secret-access-key-stdin: nothing was read from stdin');
    ctx.addSecret(secret);

    const client = await ctx.api();
    const forbidden = (error: unknown) => {
      if ((error as { status?: number }).status === 403 && error instanceof Error) (error as { hint?: string }).hint = 'These routes take an organization-scoped API key (a project key is refused). On llmobs server it is the "Organization key" it prints.';
      return error;
    };
    try {
      switch (opts.action) {
        case 'get': {
          const list = await api.listIntegrations(client);
          if (ctx.globals.json) return ctx.out.printJson(list);
          if (list.length === 0) return ctx.out.info('No blob storage integration is configured.');
          ctx.out.table(['project', 'type', 'bucket', 'prefix', 'every', 'format', 'enabled', 'last sync', 'error'].map((header) => ({ header })), list.map((i) => [i.projectId, i.type, i.bucketName, i.prefix, i.exportFrequency, i.fileType, String(i.enabled), i.lastSyncAt ?? '', i.lastError ?? '']));
          return;
        }
        case 'set': {
          const body = {
            projectId: opts.project,
            type: opts.type ?? (opts.endpoint ? 'S3_COMPATIBLE' : 'S3'),
            bucketName: opts.bucket,
            endpoint: opts.endpoint ?? null,
            region: opts.region,
            accessKeyId: opts.accessKeyId ?? null,
            ...(secret ? { secretAccessKey: secret } : {}),
            prefix: opts.prefix,
            exportFrequency: INTERVAL_NAMES[opts.interval] ?? opts.interval,
            enabled: !opts.disabled,
            forcePathStyle: opts.forcePathStyle,
            fileType: opts.format.toUpperCase(),
            exportMode: opts.from ? 'FROM_CUSTOM_DATE' : 'FULL_HISTORY',
            exportStartDate: opts.from?.toISOString() ?? null,
            compressed: opts.gzip,
            ...(groups.length ? { exportSource: 'OBSERVATIONS_V2', exportFieldGroups: [...new Set(['core', ...groups])] } : {}),
          };
          const saved = await api.putIntegration(client, body);
          if (ctx.globals.json) return ctx.out.printJson(saved);
          ctx.out.success(`Blob storage export of ${saved.projectId} ${saved.enabled ? 'set' : 'set (disabled)'}: ${saved.fileType} to ${saved.bucketName}/${saved.prefix}, ${saved.exportFrequency}`);
          return;
        }
        case 'status': {
          const status = await api.integrationStatus(client, opts.project!);
          if (ctx.globals.json) return ctx.out.printJson(status);
          ctx.out.keyValues([
            ['Project', status.projectId],
            ['Status', status.syncStatus],
            ['Enabled', String(status.enabled)],
            ['Last sync', status.lastSyncAt ?? '-'],
            ['Next sync', status.nextSyncAt ?? '-'],
            ['Last error', status.lastError ? `${status.lastError} (${status.lastErrorAt ?? ''})` : '-'],
          ]);
          return;
        }
        case 'delete': {
          if (!opts.yes) {
            const sure = await (await ctx.prompter()).confirm({ message: `Delete the blob storage integration of ${opts.project}?`, default: false });
            if (!sure) return ctx.out.info('Nothing deleted.');
          }
          const message = await api.deleteIntegration(client, opts.project!);
          if (ctx.globals.json) return ctx.out.printJson({ message });
          ctx.out.success(message);
          return;
        }
      }
    } catch (error) {
      throw forbidden(error);
    }
  },
});
