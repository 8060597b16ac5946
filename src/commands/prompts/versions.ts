// llmobs prompts versions: every version, newest first, with its labels, date and commit message.
import { MAX_INT32, parseOptions, wholeNumber } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'versions',
  summary: 'every version, newest first, with its labels, date and commit message',
  args: [
    { name: '<name>', help: 'prompt name' },
  ],
  flags: [
    { flags: '--limit <n>', help: 'print at most n versions, the newest (default: all)' },
  ],
  notes: `
  Cost: the API lists a prompt's version numbers but not their details, so this
  sends one request for the list and one per version shown (4 at a time).
  --limit keeps that down for long histories.`,
  examples: [
    'llmobs prompts versions support/agent',
    'llmobs prompts versions support/agent --limit 5 --json',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { getVersions, requirePromptMeta }, { promptName }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('./shared.js')]);
    const opts = parseOptions(z.object({ name: z.string(), limit: z.string().transform(wholeNumber(1, MAX_INT32)).optional() }), { ...given, name: args[0] });
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
  },
});
