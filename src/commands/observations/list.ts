// llmobs observations list: list observations, newest first, as a table or written as data.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { observationFilterFlags } from './filter-flags.js';
import { pagingFlags } from '../paging-flags.js';

/** Observations listed when neither --limit nor --all is given (the server's page size). */
const DEFAULT_LIMIT = 50;

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'list observations, newest first: a table, or --format jsonl|csv|json',
  flags: [
    ...observationFilterFlags,
    ...pagingFlags({ noun: 'observations', serverDefault: 50, pages: false }),
    { flags: '--fields <list>', help: 'field groups (core, basic, time, io, metadata, model, usage, prompt, metrics, trace_context), fields (providedModelName, totalCost) or paths (usageDetails.input); names pick the columns, in order (comma-separated, repeatable) (default: basic,model,usage)', repeatable: true },
    { flags: '--format <format>', help: 'write data instead of a table', choices: ['jsonl', 'csv', 'json'] },
    { flags: '--output <file>', help: 'write to this file (format from --format or the extension, else jsonl)' },
  ],
  examples: [
    'llmobs observations list',
    'llmobs observations ls --type GENERATION --level ERROR --limit 20',
    'llmobs observations list --trace 7f3c9a2e --fields id,type,name,totalCost --format csv',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, retryOptions }, { routedObservationPages }, { parseFields, project }, { createWriter, formatOfFile }, { checkWindow, filterShape, observationQuery, outputShape }, { checkPaging, pagingFields }, { noteRoute, writeListing }, { printObservations }, { countOf }, { claimOutputFile }] = await Promise.all([import('zod'), import('../../api/observations.js'), import('../../api/observation-routes.js'), import('../../core/observations/fields.js'), import('../../core/observations/writer.js'), import('./filters.js'), import('../paging.js'), import('./stream.js'), import('./render.js'), import('../../output/format.js'), import('../../io/files.js')]);
    const opts = parseOptions(
      z
        .object({
          ...filterShape(ctx.now()),
          ...outputShape,
          limit: pagingFields.limit,
          all: pagingFields.all,
        })
        .superRefine(checkWindow),
      given,
    );
    checkPaging(opts);
    const toFile = opts.output !== undefined && opts.output !== '-';
    const format = opts.format ?? (toFile ? (formatOfFile(opts.output!) ?? 'jsonl') : undefined);
    const fields = parseFields(opts.fields, ['basic', 'model', 'usage']);
    if (!fields.ok) throw new UsageError(`--fields: ${fields.message}`);
    if (!format && !ctx.globals.json && fields.selection.columns) throw new UsageError('--fields with names picks columns of --format jsonl, csv or json (or --json); the table has its own columns');
    const max = opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT);
    // The file's lock before any request, as observations export takes it: a run refused for it
    // sends none.
    const output = toFile ? claimOutputFile(ctx, opts.output!) : undefined;
    try {
      const client = await ctx.api();
      // A listing: at most --max-pages pages (observations export reads any number, with flat memory).
      // A table or --json holds every page in memory; --format writes them as they come.
      const pages = routedObservationPages(ctx, client, { ...observationQuery(opts), fields: fields.selection.groups.join(',') }, FIRST_PAGE, {
        ...retryOptions(ctx),
        onRoute: (route) => noteRoute(ctx, route, fields.selection),
        max,
        pageSize: max === undefined ? OBSERVATION_PAGE_LIMIT : Math.min(max, OBSERVATION_PAGE_LIMIT),
        maxPages: ctx.globals.maxPages,
        maxBytes: format ? undefined : client.limits.maxListingBytes,
      });

      if (format) {
        const count = await writeListing(ctx, pages, createWriter(format, fields.selection), output);
        if (toFile) ctx.out.info(`${countOf(count, 'observation')} written to ${opts.output}`);
        else if (count === 0 && ctx.out.stderrIsTTY) ctx.out.info('No observations match.');
        return;
      }
      const rows: Record<string, unknown>[] = [];
      let next: string | null = null;
      for await (const page of pages) {
        // A loop, not push(...items): a server may send a page larger than a call takes arguments.
        for (const item of page.items) rows.push(item);
        next = page.state.cursor;
      }
      if (ctx.globals.json) {
        // The v2 API's own shape: the observations, and the cursor of the next page (null: no more).
        const columns = fields.selection.columns;
        ctx.out.printJson({ data: columns ? rows.map((o) => project(o, columns)) : rows, meta: { cursor: next } });
      } else if (rows.length === 0) {
        ctx.out.info('No observations match.');
        return;
      } else {
        printObservations(ctx, rows);
      }
      if (next !== null && max !== undefined) ctx.out.hint(`Showing the newest ${rows.length}. More with --limit N or --all; everything to a file with: llmobs observations export --output FILE`);
    } finally {
      output?.release();
    }
  },
});
