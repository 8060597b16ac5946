// What `prompts compile` fills in: variables from --vars-file and --var, placeholders from
// --placeholder (files, stdin or inline JSON).
import type { Context } from '../../context.js';
import type { Placeholders, Variables } from '../../core/prompts/compile.js';
import { UsageError } from '../../errors.js';
import { parseJson, parseJsonOrYaml, readTextInput } from '../../io/files.js';
import { splitAssignment } from '../options.js';

export interface CompileInputFlags {
  var: readonly string[];
  varsFile?: string | undefined;
  placeholder: readonly string[];
}

/** The variables and placeholders given; stdin (`-`) may feed only one of them. */
export async function readCompileInput(ctx: Context, flags: CompileInputFlags): Promise<{ variables: Variables; placeholders: Placeholders }> {
  const stdinUses = [flags.varsFile === '-', ...flags.placeholder.map((text) => text.endsWith('=@-'))].filter(Boolean).length;
  if (stdinUses > 1) throw new UsageError('stdin can be read once: give at most one of --vars-file - and --placeholder NAME=@-');
  const variables = await readVariables(ctx, flags);
  const placeholders = await readPlaceholders(ctx, flags.placeholder);
  return { variables, placeholders };
}

/** --var values win over the file's. */
async function readVariables(ctx: Context, flags: CompileInputFlags): Promise<Variables> {
  const variables: Variables = {};
  if (flags.varsFile) {
    const source = flags.varsFile === '-' ? 'stdin' : flags.varsFile;
    const value = await parseJsonOrYaml(await readTextInput(ctx, flags.varsFile), source);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new UsageError(`${source} must hold an object of variable names and values, e.g. {"name": "Ada"}`);
    }
    Object.assign(variables, value);
  }
  for (const text of flags.var) {
    const [key, value] = splitAssignment(text, '--var');
    variables[key] = value;
  }
  return variables;
}

async function readPlaceholders(ctx: Context, assignments: readonly string[]): Promise<Placeholders> {
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
