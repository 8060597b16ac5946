// llmobs prompts compile: fill in a version's variables and placeholders exactly as the official SDKs' compile.
import type { z } from 'zod';
import type { CompileAnalysis } from '../../core/prompts/analyze.js';
import type { Context } from '../../context.js';
import type { Placeholders, Variables } from '../../core/prompts/compile.js';
import { UsageError } from '../../errors.js';
import { parseOptions, splitAssignment } from '../options.js';
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
    const [{ z }, { contentOf, getPrompt }, { analyzeCompile, hasCompileProblems }, { compilePrompt }, { parseJson, parseJsonOrYaml, readTextInput }, { promptName, promptVersionOptions, selectorFrom, writeText }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../core/prompts/analyze.js'), import('../../core/prompts/compile.js'), import('../../io/files.js'), import('./shared.js')]);
    const Options = z.object({
      ...promptVersionOptions,
      var: z.array(z.string()).default([]),
      varsFile: z.string().min(1).optional(),
      placeholder: z.array(z.string()).default([]),
      strict: z.boolean().default(false),
    });

    type Options = z.infer<typeof Options>;

    async function readVariables(ctx: Context, opts: Options): Promise<Variables> {
      const variables: Variables = {};
      if (opts.varsFile) {
        const source = opts.varsFile === '-' ? 'stdin' : opts.varsFile;
        const value = await parseJsonOrYaml(await readTextInput(ctx, opts.varsFile), source);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw new UsageError(`${source} must hold an object of variable names and values, e.g. {"name": "Ada"}`);
        }
        Object.assign(variables, value);
      }
      for (const text of opts.var) {
        const [key, value] = splitAssignment(text, '--var');
        variables[key] = value;
      }
      return variables;
    }

    async function readPlaceholders(ctx: Context, assignments: string[]): Promise<Placeholders> {
      const placeholders: Placeholders = {};
      for (const text of assignments) {
        const [key, value] = splitAssignment(text, '--placeholder');
        if (Object.hasOwn(placeholders, key)) throw new UsageError(`--placeholder ${key} was given twice`);
        if (value.startsWith('@')) {
          const file = value.slice(1);
          placeholders[key] = await parseJsonOrYaml(await readTextInput(ctx, file), file === '-' ? 'stdin' : file);
        } else {
          placeholders[key] = parseJson(value, `--placeholder ${key}`);
        }
      }
      return placeholders;
    }

    function problems(analysis: CompileAnalysis): string[] {
      const lines: string[] = [];
      const add = (names: string[], text: string) => {
        if (names.length) lines.push(`${text}: ${names.join(', ')}`);
      };
      add(analysis.missingVariables, 'variables not given (they render as nothing)');
      add(analysis.unusedVariables, 'variables given but not used');
      add(analysis.missingPlaceholders, 'placeholders not given (they stay in the output)');
      add(analysis.unknownPlaceholders, 'placeholders given that the prompt does not have');
      add(analysis.invalidPlaceholders, 'placeholders given something other than a list of messages (inserted as JSON text)');
      add(analysis.partials, 'partials, which compile does not support (they render as nothing)');
      return lines;
    }

    const opts = parseOptions(Options, { ...given, name: args[0] });
    const name = promptName(opts.name);
    const selector = selectorFrom(opts);
    const stdinUses = [opts.varsFile === '-', ...opts.placeholder.map((text) => text.endsWith('=@-'))].filter(Boolean).length;
    if (stdinUses > 1) throw new UsageError('stdin can be read once: give at most one of --vars-file - and --placeholder NAME=@-');
    const variables = await readVariables(ctx, opts);
    const placeholders = await readPlaceholders(ctx, opts.placeholder);

    const prompt = await getPrompt(await ctx.api(), name, selector);
    const content = contentOf(prompt);
    const analysis = analyzeCompile(content, variables, placeholders);
    const where = `'${prompt.name}' version ${prompt.version}`;
    if (opts.strict && hasCompileProblems(analysis)) {
      throw new UsageError(`--strict: ${where} does not compile cleanly:\n${problems(analysis).map((line) => `  - ${line}`).join('\n')}`, {
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
    if (!opts.strict) for (const line of problems(analysis)) ctx.out.warn(line);
  },
});
