// llmobs prompts list: list prompts with their versions, labels and tags.
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { pagingFlags } from '../paging-flags.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'list prompts with their versions, labels and tags (the server pages by 10 unless told)',
  flags: [
    { flags: '--name <name>', help: 'only this prompt (exact name)' },
    { flags: '--label <label>', help: 'only versions with this label' },
    { flags: '--tag <tag>', help: 'only prompts with this tag' },
    { flags: '--from-updated-at <datetime>', help: 'only versions updated at or after this time (ISO 8601 with Z or an offset, e.g. 2026-05-01T00:00:00Z)' },
    { flags: '--to-updated-at <datetime>', help: 'only versions updated before this time (same format)' },
    ...pagingFlags({ noun: 'prompts', serverDefault: 10 }),
  ],
  notes: `
  Filters apply to each version: with --label production, VERSIONS shows only
  the version that has it, and with --from-updated-at only the versions updated
  since then.
  --json prints {"data": [...], "meta": {page, limit, totalItems, totalPages}},
  the same shape with --limit and --all (meta is the server's, of the first page
  read).`,
  examples: [
    'llmobs prompts list',
    'llmobs prompts ls --label production --limit 50',
    'llmobs prompts list --all --jq \'.data[].name\'',
    'llmobs prompts list --tag team-a --csv > prompts.csv',
  ],
  async run(ctx, { opts: given }) {
    const [{ compactVersions, listPrompts }, { checkPaging, hintMore, listingJson, readList }, { ListOptions, promptName }] = await Promise.all([import('../../api/prompts.js'), import('../paging.js'), import('./shared.js')]);
    const opts = parseOptions(ListOptions, given);
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
    else if (listing.data.length === 0) ctx.out.info('No prompts match.');
    else {
      ctx.out.table(
        [{ header: 'NAME', style: (text, c) => c.bold(text) }, { header: 'TYPE' }, { header: 'VERSIONS' }, { header: 'LABELS' }, { header: 'TAGS' }, { header: 'UPDATED' }],
        listing.data.map((prompt) => [prompt.name, prompt.type, compactVersions(prompt.versions), prompt.labels.join(','), prompt.tags.join(','), prompt.lastUpdatedAt]),
      );
    }
    hintMore(ctx, listing, 'prompts');
  },
});
