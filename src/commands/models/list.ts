import { z } from 'zod';
import { listAllModels, listModels } from '../../api/models.js';
import type { ApiModel } from '../../api/schemas/models.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { MAX_INT32, parseOptions, wholeNumber } from '../options.js';
import { pricesSummary, sourceText, tokenizerShort } from './render.js';

const count = (max = MAX_INT32) => z.string().transform(wholeNumber(1, max));

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
  ctx.out.table(
    [
      { header: 'NAME', style: (text, c) => c.bold(text) },
      { header: 'MATCH PATTERN' },
      { header: 'PRICES (USD)' },
      { header: 'TOKENIZER' },
      { header: 'SOURCE', style: (text, c) => (text === 'custom' ? c.cyan(text) : c.dim(text)) },
      { header: 'ID', style: (text, c) => c.dim(text) },
    ],
    items.map((m) => [m.modelName, m.matchPattern, pricesSummary(m), tokenizerShort(m), sourceText(m), m.id]),
  );
}
