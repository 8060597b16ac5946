import { z } from 'zod';
import { listAllModels, listModels } from '../../api/models.js';
import type { ApiModel } from '../../api/schemas/models.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { pricesSummary, sourceText, tokenizerShort } from './render.js';

const count = (max?: number) => {
  const base = z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(1, 'must be at least 1'));
  return max ? base.pipe(z.number().max(max, `must be at most ${max}`)) : base;
};

const Options = z.object({
  all: z.boolean().default(false),
  page: count().optional(),
  limit: count(100).optional(),
  custom: z.boolean().default(false),
  managed: z.boolean().default(false),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, opts));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  if (opts.custom && opts.managed) throw new UsageError('--custom and --managed exclude each other; leave both out to list every definition');
  const filtered = opts.custom || opts.managed;
  if (opts.page !== undefined && (opts.all || filtered)) {
    throw new UsageError(`--page cannot be combined with ${opts.all ? '--all' : opts.custom ? '--custom' : '--managed'}`, {
      hint: '--custom and --managed read every page, since the server cannot filter.',
    });
  }
  const client = await ctx.api();

  if (opts.all || filtered) {
    const all = await listAllModels(client, opts.limit ?? 100);
    const items = all.filter((m) => (opts.custom ? !m.isLangfuseManaged : opts.managed ? m.isLangfuseManaged : true));
    if (ctx.globals.json) return ctx.out.printJson(items);
    print(ctx, items);
    const custom = items.filter((m) => !m.isLangfuseManaged).length;
    ctx.out.info(`${items.length} definition${items.length === 1 ? '' : 's'} (${custom} custom, ${items.length - custom} built-in)`);
    return;
  }

  const page = await listModels(client, { page: opts.page, limit: opts.limit });
  if (ctx.globals.json) return ctx.out.printJson(page);
  print(ctx, page.data);
  const { meta } = page;
  if (meta.totalPages > 1 || meta.page > 1) {
    const next = meta.page < meta.totalPages ? `; next: --page ${meta.page + 1}` : '';
    ctx.out.info(`page ${meta.page} of ${meta.totalPages} (${meta.totalItems} definitions)${next}, or --all for every page`);
  }
}

function print(ctx: Context, items: ApiModel[]): void {
  if (items.length === 0) {
    ctx.out.info('No model definitions.');
    return;
  }
  // On a terminal the table fits its width: long patterns and price lists are cut, and on a narrow
  // one the tokenizer, then the pattern, are left out (source and id, needed to act on a row,
  // never are). Piped output and --json keep everything.
  const cut = ctx.out.table(
    [
      { header: 'NAME', style: (text, c) => c.bold(text), shrinkTo: 12 },
      { header: 'MATCH PATTERN', shrinkTo: 14, dropOrder: 2 },
      { header: 'PRICES (USD)', shrinkTo: 12 },
      { header: 'TOKENIZER', shrinkTo: 9, dropOrder: 1 },
      { header: 'SOURCE', style: (text, c) => (text === 'custom' ? c.cyan(text) : c.dim(text)) },
      { header: 'ID', style: (text, c) => c.dim(text) },
    ],
    items.map((m) => [m.modelName, m.matchPattern, pricesSummary(m), tokenizerShort(m), sourceText(m), m.id]),
  );
  if (cut) ctx.out.hint('Cut to fit the terminal (… marks a cut value; narrow terminals leave out columns): see a definition in full with llmobs models get <id>, every field with --json.');
}
