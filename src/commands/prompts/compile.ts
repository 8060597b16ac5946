// llmobs prompts compile: fill in a version's variables and placeholders exactly as the official SDKs' compile.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'compile',
  summary: 'fill in a version\'s variables and placeholders exactly as the official SDKs\' compile() does',
  args: [
    { name: '<name>', help: 'prompt name' },
  ],
  flags: [
    { flags: '--version <n>', help: 'a version number' },
    { flags: '--label <label>', help: 'the version that carries this label' },
    { flags: '--var <key=value>', help: 'variable value, a string (repeatable; wins over --vars-file)', repeatable: true },
    { flags: '--vars-file <file>', help: 'variables from a JSON or YAML object (values may be lists or objects for sections)' },
    { flags: '--placeholder <name=@file>', help: 'messages for a placeholder: @file (JSON or YAML list of {role, content}, @- for stdin) or inline JSON (repeatable)', repeatable: true },
    { flags: '--strict', help: 'fail (exit 2) if a variable or placeholder is missing, or a given one is unused' },
  ],
  notes: `
  Mustache without HTML escaping: a missing variable renders as nothing. A
  placeholder given a list of messages is replaced by them, an empty list drops
  it, and one not given stays in the output as {"type": "placeholder", "name":
  ...}. A text prompt prints as text, a chat prompt as a JSON array.
  --json prints {name, version, labels, type, compiled, analysis}.`,
  examples: [
    'llmobs prompts compile support/agent --label production --var name=Ada --placeholder history=@history.json --strict',
    'llmobs prompts compile support/greeting --vars-file vars.yaml',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { contentOf, getPrompt }, { analyzeCompile, describeCompileProblems, hasCompileProblems }, { compilePrompt }, { readCompileInput }, { promptName, promptVersionOptions, selectorFrom, writeText }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/analyze.js'), import('../../core/prompts/compile.js'), import('./compile-input.js'), import('./shared.js')]);
    const opts = parseOptions(
      z.object({
        ...promptVersionOptions,
        var: z.array(z.string()).default([]),
        varsFile: z.string().min(1).optional(),
        placeholder: z.array(z.string()).default([]),
        strict: z.boolean().default(false),
      }),
      { ...given, name: args[0] },
    );
    const name = promptName(opts.name);
    const selector = selectorFrom(opts);
    const { variables, placeholders } = await readCompileInput(ctx, opts);

    const prompt = await getPrompt(await ctx.api(), name, selector);
    const content = contentOf(prompt);
    const analysis = analyzeCompile(content, variables, placeholders);
    const problems = describeCompileProblems(analysis);
    if (opts.strict && hasCompileProblems(analysis)) {
      throw new UsageError(`--strict: '${prompt.name}' version ${prompt.version} does not compile cleanly:\n${problems.map((line) => `  - ${line}`).join('\n')}`, {
        details: analysis,
        hint: 'Give the missing values with --var, --vars-file or --placeholder, and drop the unused ones.',
      });
    }
    const compiled = compilePrompt(content, variables, placeholders);

    if (ctx.globals.json) {
      ctx.out.printJson({ name: prompt.name, version: prompt.version, labels: prompt.labels, type: prompt.type, compiled, analysis });
    } else if (typeof compiled === 'string') {
      writeText(ctx, compiled);
    } else {
      ctx.out.printJson(compiled);
    }
    if (!opts.strict) for (const line of problems) ctx.out.warn(line);
  },
});
