import { z } from 'zod';
import { contentOf, getPrompt } from '../../api/prompts.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type CompileAnalysis, analyzeCompile, hasCompileProblems } from '../../core/prompts/analyze.js';
import { type Placeholders, type Variables, compilePrompt } from '../../core/prompts/compile.js';
import { parseJson, parseJsonOrYaml, readTextInput } from '../../io/files.js';
import type { ActionInput } from '../action.js';
import { parseOptions, splitAssignment } from '../options.js';
import { promptName, promptVersionOptions, selectorFrom, writeText } from './shared.js';

const Options = z.object({
  ...promptVersionOptions,
  var: z.array(z.string()).default([]),
  varsFile: z.string().min(1).optional(),
  placeholder: z.array(z.string()).default([]),
  strict: z.boolean().default(false),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, name: args[0] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
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
}

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
