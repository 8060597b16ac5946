import { z } from 'zod';
import { compactVersions, listPrompts } from '../../api/prompts.js';
import type { PromptMeta } from '../../api/schemas/prompts.js';
import type { Context } from '../../context.js';
import { UPDATED_AT_FORMAT, updatedAtSchema } from '../../core/prompts/updated-at.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { checkPaging, hintMore, listingJson, pagingFields, readList } from '../paging.js';
import { promptName } from './shared.js';

const updatedAt = updatedAtSchema((input) => `must be ${UPDATED_AT_FORMAT}, not ${JSON.stringify(input)}`);

export const Options = z
  .object({
    name: z.string().optional(),
    label: z.string().min(1, 'must not be empty').optional(),
    tag: z.string().min(1, 'must not be empty').optional(),
    fromUpdatedAt: updatedAt.optional(),
    toUpdatedAt: updatedAt.optional(),
    ...pagingFields,
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
  checkPaging(opts);
  const filters = {
    name: opts.name === undefined ? undefined : promptName(opts.name),
    label: opts.label,
    tag: opts.tag,
    fromUpdatedAt: opts.fromUpdatedAt,
    toUpdatedAt: opts.toUpdatedAt,
  };
  const client = await ctx.api();

  const listing = await readList((page) => listPrompts(client, filters, page), opts, { maxPages: ctx.globals.maxPages });
  if (ctx.globals.json) ctx.out.printJson(listingJson(listing));
  else print(ctx, listing.data);
  hintMore(ctx, listing, 'prompts');
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
