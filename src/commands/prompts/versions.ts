import { z } from 'zod';
import { getVersions, requirePromptMeta } from '../../api/prompts.js';
import type { Context } from '../../context.js';
import type { ActionInput } from '../action.js';
import { MAX_INT32, parseOptions, wholeNumber } from '../options.js';
import { promptName } from './shared.js';

const Options = z.object({
  name: z.string(),
  limit: z.string().transform(wholeNumber(1, MAX_INT32)).optional(),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  const name = promptName(opts.name);
  const client = await ctx.api();
  const meta = await requirePromptMeta(client, name);
  const newestFirst = [...meta.versions].sort((a, b) => b - a);
  const shown = opts.limit === undefined ? newestFirst : newestFirst.slice(0, opts.limit);
  ctx.trace(`reading ${shown.length} of ${newestFirst.length} versions of '${name}'`);
  const versions = (await getVersions(client, name, shown)).map((prompt) => ({
    version: prompt.version,
    labels: prompt.labels,
    createdAt: prompt.createdAt ?? null,
    createdBy: prompt.createdBy ?? null,
    commitMessage: prompt.commitMessage ?? null,
  }));

  if (ctx.globals.json) ctx.out.printJson({ name, type: meta.type, totalVersions: newestFirst.length, versions });
  else {
    ctx.out.table(
      [{ header: 'VERSION', align: 'right' }, { header: 'LABELS', style: (text, c) => c.green(text) }, { header: 'CREATED' }, { header: 'BY' }, { header: 'COMMIT MESSAGE' }],
      versions.map((entry) => [entry.version, entry.labels.join(','), entry.createdAt, entry.createdBy, entry.commitMessage]),
    );
  }
  if (shown.length < newestFirst.length) ctx.out.hint(`Showing the newest ${shown.length} of ${newestFirst.length} versions. All of them: leave out --limit`);
}
