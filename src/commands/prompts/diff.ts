// llmobs prompts diff: unified diff of the content.
import { ExitCode } from '../../errors.js';
import { parseOptions, wholeNumber } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'diff',
  summary: 'unified diff of the content (chat messages one per block) and the config of two versions',
  args: [
    { name: '<name>', help: 'prompt name' },
    { name: '<a>', help: 'a version number or a label' },
    { name: '<b>', help: 'a version number or a label' },
  ],
  flags: [
    { flags: '-U, --context <lines>', help: 'lines of context', default: '3' },
    { flags: '--exit-code', help: 'exit 9 when the versions differ and 0 when they do not (as prompts status --exit-code)' },
  ],
  examples: [
    'llmobs prompts diff support/agent production staging',
    'llmobs prompts diff support/agent 3 latest --json',
    '# In CI: is there anything to promote?',
    'llmobs prompts diff support/agent production staging --exit-code > /dev/null || echo "staging differs"',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { diffSideOf, getPrompt }, { diffPrompts }, { colourDiff }, { promptName, versionOrLabel }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/diff.js'), import('../../output/diff.js'), import('./shared.js')]);
    const opts = parseOptions(
      z.object({ name: z.string(), a: z.string(), b: z.string(), context: z.string().transform(wholeNumber(0, 100_000)), exitCode: z.boolean().default(false) }),
      { ...given, name: args[0], a: args[1], b: args[2] },
    );
    const name = promptName(opts.name);
    const [selectorA, selectorB] = [versionOrLabel(opts.a), versionOrLabel(opts.b)];
    const client = await ctx.api();
    const [a, b] = await Promise.all([getPrompt(client, name, selectorA), getPrompt(client, name, selectorB)]);
    const diff = diffPrompts(diffSideOf(a), diffSideOf(b), { context: opts.context });
    const same = diff.content === '' && diff.config === '';
    // Like prompts status --exit-code: 9 (a check asked for did not hold) when there are differences,
    // so a script can tell them from an unexpected error (1).
    if (opts.exitCode && !same) ctx.exitCode = ExitCode.precondition;

    if (ctx.globals.json) {
      ctx.out.printJson({
        name,
        a: { ref: opts.a, version: a.version, labels: a.labels },
        b: { ref: opts.b, version: b.version, labels: b.labels },
        same,
        content: diff.content,
        config: diff.config,
      });
      return;
    }
    if (a.version === b.version) ctx.out.info(`${opts.a} and ${opts.b} are both version ${a.version}.`);
    if (same) {
      if (a.version !== b.version) ctx.out.info(`No differences in content or config between version ${a.version} and version ${b.version}.`);
      return;
    }
    for (const patch of [diff.content, diff.config]) if (patch) ctx.out.write(colourDiff(ctx.out, patch));
  },
});
