import type { z } from 'zod';
import type { ApiClient, Query } from '../../api/client.js';
import type { Checkpoint } from './checkpoint.js';
import type { Context } from '../../context.js';
import type { FieldGroup, FieldSelection } from '../../core/observations/fields.js';
import type { Format } from '../../core/observations/writer.js';
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { resolve } from 'node:path';
import { defineCommand } from '../define.js';
import { observationFilterFlags } from './filter-flags.js';

export default defineCommand({
  name: 'export',
  summary: 'export every matching observation, page by page with flat memory; after a failure or Ctrl-C, --resume continues where it stopped',
  flags: [
    ...observationFilterFlags,
    { flags: '--output <file>', help: 'write to this file, with a checkpoint beside it while it runs (default: stdout, no checkpoint)' },
    { flags: '--format <format>', help: 'jsonl (default), csv, or json (an array, one element per line); the extension of --output decides when not given', choices: ['jsonl', 'csv', 'json'] },
    { flags: '--fields <list>', help: 'field groups (core, basic, time, io, metadata, model, usage, prompt, metrics, trace_context), fields (providedModelName, totalCost) or paths (usageDetails.input); names pick the columns, in order (comma-separated, repeatable) (default: every group)', repeatable: true },
    { flags: '--limit <n>', help: 'export at most this many' },
    { flags: '--page-size <n>', help: 'observations per request, 1 to 1000 (default 1000)' },
    { flags: '--expand-metadata <keys>', help: 'metadata keys whose values are exported whole (the server cuts values over 200 characters)' },
    { flags: '--resume', help: 'continue the interrupted export of --output from its checkpoint' },
    { flags: '--force', help: 'start over, replacing --output and its checkpoint' },
  ],
  examples: [
    'llmobs observations export --from 2026-05-01 --to 2026-06-01 --output may.jsonl',
    '# after a failure or Ctrl-C: continue where it stopped',
    'llmobs observations export --output may.jsonl --resume',
    'llmobs observations export --type GENERATION --fields id,providedModelName,usageDetails.input,totalCost --output generations.csv',
  ],
  async run(ctx, { opts }) {
    const [{ z }, { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, observationPages, retryOptions }, { GROUP_NAMES, groupColumns, parseFields }, { checkpointPath, identityOf, readCheckpoint }, { exportToFile }, { checkWindow, filterShape, observationQuery, wholeNumber }, { Meter }, { createWriter, FORMATS, formatOfFile }, { countOf }] = await Promise.all([import('zod'), import('../../api/observations.js'), import('../../core/observations/fields.js'), import('./checkpoint.js'), import('./export-file.js'), import('./filters.js'), import('./meter.js'), import('../../core/observations/writer.js'), import('../../output/format.js')]);
    const EXPORT_GROUPS: readonly FieldGroup[] = GROUP_NAMES;

    function options(now: Date) {
      return z
        .object({
          ...filterShape(now),
          fields: z.array(z.string()).optional(),
          format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
          output: z.string().min(1, 'must not be empty').optional(),
          limit: wholeNumber(1).optional(),
          pageSize: wholeNumber(1, OBSERVATION_PAGE_LIMIT).optional(),
          expandMetadata: z.string().min(1).optional(),
          resume: z.boolean().default(false),
          force: z.boolean().default(false),
        })
        .superRefine(checkWindow);
    }

    type Options = z.infer<ReturnType<typeof options>>;

    /** The options that decide what is exported (a resume must not change them). */
    const QUERY_OPTIONS = ['type', 'name', 'trace', 'user', 'session', 'environment', 'level', 'version', 'from', 'to', 'fields', 'format', 'limit', 'pageSize', 'expandMetadata'] as const;

    interface Plan {
      format: Format;
      selection: FieldSelection;
      query: Query;
      max: number | undefined;
      pageSize: number;
    }

    function plan(opts: Options): Plan {
      const fields = parseFields(opts.fields, EXPORT_GROUPS);
      if (!fields.ok) throw new UsageError(`--fields: ${fields.message}`);
      const format = opts.format ?? (opts.output && opts.output !== '-' ? formatOfFile(opts.output) : undefined) ?? 'jsonl';
      const query: Query = { ...observationQuery(opts), fields: fields.selection.groups.join(','), expandMetadata: opts.expandMetadata };
      return { format, selection: fields.selection, query, max: opts.limit, pageSize: opts.pageSize ?? OBSERVATION_PAGE_LIMIT };
    }

    /** The query as the checkpoint keeps it: only the parameters that are set, as strings. */
    function storedQuery(query: Query): Record<string, string | string[]> {
      const out: Record<string, string | string[]> = {};
      for (const [key, value] of Object.entries(query)) {
        if (value === undefined || value === null) continue;
        out[key] = Array.isArray(value) ? value.map(String) : String(value);
      }
      return out;
    }

    async function run(ctx: Context, opts: Options): Promise<void> {
      if (opts.resume && opts.force) throw new UsageError('--resume continues an export and --force starts it over: use one');
      const toFile = opts.output !== undefined && opts.output !== '-';
      if (opts.resume && !toFile) throw new UsageError('--resume needs --output FILE: only an export to a file keeps a checkpoint');
      const given = QUERY_OPTIONS.filter((key) => opts[key] !== undefined);
      const wanted = plan(opts);

      if (!toFile) {
        const client = await ctx.api();
        await toStdout(ctx, client, wanted);
        return;
      }
      const output = resolve(ctx.cwd, opts.output!);
      const cpPath = checkpointPath(output);
      const existing = await readCheckpoint(cpPath);
      const client = await ctx.api();
      const identity = identityOf(client.baseUrl, client.config.auth.type === 'basic' ? client.config.auth.publicKey : client.config.auth.type);

      if (opts.resume) {
        if (!existing) throw new UsageError(`nothing to resume: ${opts.output} has no checkpoint (${cpPath}); the export finished or never started`);
        if (existing.identity !== identity) {
          throw new UsageError(`the checkpoint of ${opts.output} was made with another server or key (${existing.baseUrl})`, { hint: 'Resume with the same profile (or --base-url and keys) as the export that was interrupted, or start over with --force.' });
        }
        const differences = given.length ? differencesFrom(existing, wanted) : [];
        if (differences.length) {
          throw new UsageError(`--resume continues the export as it was started; these options differ: ${differences.join(', ')}`, { hint: `Resume with only: llmobs observations export --output ${opts.output} --resume` });
        }
        await exportToFile(ctx, client, output, opts.output!, existing, true);
        return;
      }
      if (existing && !opts.force) {
        throw new UsageError(`${opts.output} holds an unfinished export (${countOf(existing.items, 'observation')} so far)`, {
          hint: `Continue it with: llmobs observations export --output ${opts.output} --resume   (or start over with --force)`,
        });
      }
      const now = ctx.now().toISOString();
      const checkpoint: Checkpoint = {
        version: 1,
        kind: 'observations-export',
        identity,
        baseUrl: client.baseUrl,
        format: wanted.format,
        query: storedQuery(wanted.query),
        columns: wanted.format === 'csv' ? createCsvColumns(wanted.selection) : wanted.selection.columns,
        max: wanted.max ?? null,
        pageSize: wanted.pageSize,
        cursor: null,
        items: 0,
        pages: 0,
        bytes: 0,
        complete: false,
        startedAt: now,
        updatedAt: now,
      };
      await exportToFile(ctx, client, output, opts.output!, checkpoint, false);
    }

    function createCsvColumns(selection: FieldSelection): string[] {
      return selection.columns ?? groupColumns(selection.groups);
    }

    function differencesFrom(cp: Checkpoint, wanted: Plan): string[] {
      const out: string[] = [];
      const a = storedQuery(wanted.query);
      for (const key of new Set([...Object.keys(a), ...Object.keys(cp.query)])) {
        if (JSON.stringify(a[key]) !== JSON.stringify(cp.query[key])) out.push(`${key} (${JSON.stringify(cp.query[key] ?? null)} then, ${JSON.stringify(a[key] ?? null)} now)`);
      }
      if (wanted.format !== cp.format) out.push(`format (${cp.format} then, ${wanted.format} now)`);
      if ((wanted.max ?? null) !== cp.max) out.push(`limit (${cp.max ?? 'none'} then, ${wanted.max ?? 'none'} now)`);
      const columns = wanted.format === 'csv' ? createCsvColumns(wanted.selection) : wanted.selection.columns;
      if (JSON.stringify(columns) !== JSON.stringify(cp.columns)) out.push('fields');
      if (wanted.pageSize !== cp.pageSize) out.push(`page size (${cp.pageSize} then, ${wanted.pageSize} now)`);
      return out;
    }


    async function toStdout(ctx: Context, client: ApiClient, wanted: Plan): Promise<void> {
      const writer = createWriter(wanted.format, wanted.selection);
      const meter = new Meter(ctx, 0, 0);
      meter.announceRetries(client);
      await ctx.out.writeChunk(writer.header());
      let count = 0;
      try {
        for await (const page of observationPages(client, wanted.query, FIRST_PAGE, { ...retryOptions(ctx), max: wanted.max, pageSize: wanted.pageSize })) {
          await ctx.out.writeChunk(writer.items(page.items, count));
          count += page.items.length;
          meter.page(page.items.length);
        }
      } finally {
        meter.clear();
      }
      await ctx.out.writeChunk(writer.footer(count));
      meter.done(`Exported ${countOf(count, 'observation')}`);
    }

    await run(ctx, parseOptions(options(ctx.now()), opts));
  },
});
