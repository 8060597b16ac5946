import type { z } from 'zod';
import type { Context } from '../../context.js';
import type { AtomicStream } from '../../io/atomic.js';
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { observationFilterFlags } from './filter-flags.js';
import { pagingFlags } from '../paging-flags.js';

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
  async run(ctx, { opts }) {
    const [{ z }, { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, observationPages, retryOptions }, { lenientNumber, lenientNumberMap, tokenSums }, { parseFields, project }, { countOf, formatCost, formatTokens }, { checkWindow, filterShape, observationQuery }, { checkPaging, pagingFields }, { createWriter, FORMATS, formatOfFile }, { openOutputFile }] = await Promise.all([import('zod'), import('../../api/observations.js'), import('../../core/numbers.js'), import('../../core/observations/fields.js'), import('../../output/format.js'), import('./filters.js'), import('../paging.js'), import('../../core/observations/writer.js'), import('../../io/files.js')]);
    const DEFAULT_LIMIT = 50;

    function options(now: Date) {
      return z
        .object({
          ...filterShape(now),
          fields: z.array(z.string()).optional(),
          format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
          output: z.string().min(1, 'must not be empty').optional(),
          limit: pagingFields.limit,
          all: pagingFields.all,
        })
        .superRefine(checkWindow);
    }

    type Options = z.infer<ReturnType<typeof options>>;

    async function run(ctx: Context, opts: Options): Promise<void> {
      checkPaging(opts);
      const toFile = opts.output !== undefined && opts.output !== '-';
      const format = opts.format ?? (toFile ? (formatOfFile(opts.output!) ?? 'jsonl') : undefined);
      const fields = parseFields(opts.fields, format ? ['basic', 'model', 'usage'] : ['basic', 'model', 'usage']);
      if (!fields.ok) throw new UsageError(`--fields: ${fields.message}`);
      if (!format && !ctx.globals.json && fields.selection.columns) throw new UsageError('--fields with names picks columns of --format jsonl, csv or json (or --json); the table has its own columns');
      const max = opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT);
      const query = { ...observationQuery(opts), fields: fields.selection.groups.join(',') };
      const pageSize = max === undefined ? OBSERVATION_PAGE_LIMIT : Math.min(max, OBSERVATION_PAGE_LIMIT);
      const client = await ctx.api();
      // A listing: at most --max-pages pages (observations export reads any number, with flat memory).
      // A table or --json holds every page in memory; --format writes them as they come.
      const pages = observationPages(client, query, FIRST_PAGE, {
        ...retryOptions(ctx),
        max,
        pageSize,
        maxPages: ctx.globals.maxPages,
        maxBytes: format ? undefined : client.limits.maxListingBytes,
      });

      if (format) {
        const writer = createWriter(format, fields.selection);
        // A file is written beside its name and renamed when complete: never half-written. It is
        // opened with the first write, so a failing query leaves nothing behind.
        let file: AtomicStream | undefined;
        const write = async (text: string) => {
          if (!toFile) return ctx.out.writeChunk(text);
          file ??= await openOutputFile(ctx, opts.output!);
          await file.write(text);
        };
        let count = 0;
        let started = false;
        // Nothing is written before the first answer: a failing query prints no half document.
        const begin = async () => {
          if (!started) await write(writer.header());
          started = true;
        };
        try {
          for await (const page of pages) {
            await begin();
            await write(writer.items(page.items, count));
            count += page.items.length;
          }
          await begin();
          await write(writer.footer(count));
          await file?.commit();
        } catch (error) {
          await file?.discard();
          throw error;
        }
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
      const more = next !== null;
      if (ctx.globals.json) {
        // The v2 API's own shape: the observations, and the cursor of the next page (null: no more).
        const columns = fields.selection.columns;
        ctx.out.printJson({ data: columns ? rows.map((o) => project(o, columns)) : rows, meta: { cursor: next } });
        if (more && max !== undefined) ctx.out.hint(`Showing the newest ${rows.length}. More with --limit N or --all; everything to a file with: llmobs observations export --output FILE`);
        return;
      }
      if (rows.length === 0) {
        ctx.out.info('No observations match.');
        return;
      }
      ctx.out.table(
        [
          { header: 'START' },
          { header: 'TYPE' },
          { header: 'NAME', style: (text, c) => c.bold(text) },
          { header: 'MODEL' },
          { header: 'LEVEL', style: (text, c) => (text === 'ERROR' ? c.red(text) : text === 'WARNING' ? c.yellow(text) : text) },
          { header: 'TOKENS IN/OUT', align: 'right' },
          { header: 'COST', align: 'right' },
          { header: 'TRACE' },
          { header: 'ID' },
        ],
        rows.map((o) => {
          const usage = lenientNumberMap(o.usageDetails);
          const tokens = tokenSums(usage);
          const cost = lenientNumber(o.totalCost) ?? lenientNumberMap(o.costDetails).total ?? null;
          return [
            typeof o.startTime === 'string' ? o.startTime.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '',
            o.type as string,
            (o.name as string | null) ?? '',
            (o.providedModelName as string | null) ?? '',
            (o.level as string | null) ?? '',
            Object.keys(usage).length ? `${formatTokens(tokens.input)}/${formatTokens(tokens.output)}` : '',
            cost === null ? '' : formatCost(cost),
            (o.traceId as string | null) ?? '',
            o.id as string,
          ];
        }),
      );
      if (more && max !== undefined) ctx.out.hint(`Showing the newest ${rows.length}. More with --limit N or --all; everything to a file with: llmobs observations export --output FILE`);
    }

    await run(ctx, parseOptions(options(ctx.now()), opts));
  },
});
