import { z } from 'zod';
import { compactVersions, listAllPrompts, listPrompts } from '../../api/prompts.js';
import type { PromptMeta } from '../../api/schemas/prompts.js';
import type { Context } from '../../context.js';
import { UPDATED_AT_FORMAT, updatedAtSchema } from '../../core/prompts/updated-at.js';
import { UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { MAX_INT32, parseOptions, wholeNumber } from '../options.js';
import { promptName } from './shared.js';

const whole = (min: number, max = MAX_INT32) => z.string().transform(wholeNumber(min, max));

const updatedAt = updatedAtSchema((input) => `must be ${UPDATED_AT_FORMAT}, not ${JSON.stringify(input)}`);

export const Options = z
  .object({
    name: z.string().optional(),
    label: z.string().min(1, 'must not be empty').optional(),
    tag: z.string().min(1, 'must not be empty').optional(),
    fromUpdatedAt: updatedAt.optional(),
    toUpdatedAt: updatedAt.optional(),
    all: z.boolean().default(false),
    page: whole(1).optional(),
    limit: whole(1, 100).optional(),
  })
  .superRefine(({ fromUpdatedAt: from, toUpdatedAt: to }, check) => {
    // Only two valid times can be compared; a bad one is reported by its own field.
    if (from === undefined || to === undefined || !updatedAt.safeParse(from).success || !updatedAt.safeParse(to).success) return;
    if (Date.parse(from) >= Date.parse(to)) {
      check.addIssue({ code: 'custom', message: `--from-updated-at (${from}) must be earlier than --to-updated-at (${to}): from is inclusive and to exclusive, so nothing could match` });
    }
  });

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, opts));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  if (opts.all && (opts.page !== undefined || opts.limit !== undefined)) throw new UsageError('--all fetches every page: drop --page and --limit');
  const filters = {
    name: opts.name === undefined ? undefined : promptName(opts.name),
    label: opts.label,
    tag: opts.tag,
    fromUpdatedAt: opts.fromUpdatedAt,
    toUpdatedAt: opts.toUpdatedAt,
  };
  const client = await ctx.api();

  if (opts.all) {
    const prompts = await listAllPrompts(client, filters);
    if (ctx.globals.json) return ctx.out.printJson(prompts);
    return print(ctx, prompts);
  }
  const page = await listPrompts(client, filters, { page: opts.page, limit: opts.limit });
  if (ctx.globals.json) return ctx.out.printJson({ data: page.data, meta: page.meta });
  print(ctx, page.data);
  const { meta } = page;
  if (meta.totalPages > meta.page) {
    ctx.out.hint(`Page ${meta.page} of ${meta.totalPages} (${meta.totalItems} prompts). Next: --page ${meta.page + 1}, or all at once: --all`);
  } else if (meta.page > 1 && page.data.length === 0 && meta.totalItems > 0) {
    ctx.out.hint(`There are only ${meta.totalPages} pages.`);
  }
}

function print(ctx: Context, prompts: PromptMeta[]): void {
  if (prompts.length === 0) {
    ctx.out.info('No prompts match.');
    return;
  }
  ctx.out.table(
    [{ header: 'NAME', style: (text, c) => c.bold(text) }, { header: 'TYPE' }, { header: 'VERSIONS' }, { header: 'LABELS' }, { header: 'TAGS' }, { header: 'UPDATED' }],
    prompts.map((prompt) => [prompt.name, prompt.type, compactVersions(prompt.versions), prompt.labels.join(','), prompt.tags.join(','), prompt.lastUpdatedAt]),
  );
}
