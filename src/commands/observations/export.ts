// llmobs observations export: every matching observation, page by page, to stdout or to a file
// that a later run can resume.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { observationFilterFlags } from './filter-flags.js';

/** The options that decide what is exported (a resume must not change them). */
const REQUEST_OPTIONS = ['type', 'name', 'trace', 'user', 'session', 'environment', 'level', 'version', 'from', 'to', 'fields', 'format', 'limit', 'pageSize', 'expandMetadata'] as const;

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
    { flags: '--expand-metadata <keys>', help: 'keep every metadata value whole when --fields has metadata but not io (any key named will do; otherwise the server cuts values at 200 characters)' },
    { flags: '--resume', help: 'continue the interrupted export of --output from its checkpoint' },
    { flags: '--force', help: 'start over, replacing --output and its checkpoint' },
  ],
  examples: [
    'llmobs observations export --from 2026-05-01 --to 2026-06-01 --output may.jsonl',
    '# after a failure or Ctrl-C: continue where it stopped',
    'llmobs observations export --output may.jsonl --resume',
    'llmobs observations export --type GENERATION --fields id,providedModelName,usageDetails.input,totalCost --output generations.csv',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { OBSERVATION_PAGE_LIMIT }, { GROUP_NAMES, parseFields }, { formatOfFile }, { checkWindow, filterShape, observationQuery, outputShape, wholeNumber }, { exportToStdout }, { exportToFile }] = await Promise.all([import('zod'), import('../../api/observations.js'), import('../../core/observations/fields.js'), import('../../core/observations/writer.js'), import('./filters.js'), import('./stream.js'), import('./export-file.js')]);
    const opts = parseOptions(
      z
        .object({
          ...filterShape(ctx.now()),
          ...outputShape,
          limit: wholeNumber(1).optional(),
          pageSize: wholeNumber(1, OBSERVATION_PAGE_LIMIT).optional(),
          expandMetadata: z.string().min(1).optional(),
          resume: z.boolean().default(false),
          force: z.boolean().default(false),
        })
        .superRefine(checkWindow),
      given,
    );
    if (opts.resume && opts.force) throw new UsageError('--resume continues an export and --force starts it over: use one');
    const toFile = opts.output !== undefined && opts.output !== '-';
    if (opts.resume && !toFile) throw new UsageError('--resume needs --output FILE: only an export to a file keeps a checkpoint');
    const fields = parseFields(opts.fields, GROUP_NAMES);
    if (!fields.ok) throw new UsageError(`--fields: ${fields.message}`);
    const request = {
      format: opts.format ?? (toFile ? formatOfFile(opts.output!) : undefined) ?? 'jsonl',
      selection: fields.selection,
      query: { ...observationQuery(opts), fields: fields.selection.groups.join(','), expandMetadata: opts.expandMetadata },
      max: opts.limit,
      pageSize: opts.pageSize ?? OBSERVATION_PAGE_LIMIT,
    };
    if (!toFile) return exportToStdout(ctx, await ctx.api(), request);
    await exportToFile(ctx, request, { output: opts.output!, resume: opts.resume, force: opts.force, requestGiven: REQUEST_OPTIONS.some((key) => opts[key] !== undefined) });
  },
});
