// Where model definitions come from: the one place every command that matches model names,
// counts tokens for a model or prices a generation asks (`estimate`, `tokens count --model`,
// `models match`; `models lint` reads files and the profile's definitions here too).
//
// The rule, the same for every command:
// - `--offline`: the built-in catalogue bundled with llmobs. Never the network.
// - `--remote`: the project's definitions on the configured server (its own and the
//   Langfuse-managed ones, every page), exactly what the server matches against.
// - neither: the project's definitions when a server with credentials is configured (a profile,
//   or a key pair in the environment), else the built-in catalogue. So `npx llmobs estimate` works
//   with no account, and an operator with a profile gets the prices the server will charge.
// `--models-file` adds custom definitions on top of either, as if they had been created in the
// project; a file that holds Langfuse-managed definitions (a saved `models list --all --json`)
// replaces the catalogue (offline only). Every output says which definitions it used.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/dir.js';
import { ENVIRONMENT_VARIABLES } from '../config/variables.js';
import type { Context } from '../context.js';
import { closestNames } from '../core/did-you-mean.js';
import type { ModelDefinition } from '../core/models/types.js';
import { builtInCandidates, builtInDefinitions, catalogueInfo } from '../data/catalogue.js';
import { CliError, UsageError } from '../errors.js';
import type { RemoteDefinitions } from './remote.js';

// The pieces, for commands that need one of them alone (lint, create, update, delete), are
// beside this file: the models file, and the project's definitions with their cache. They load
// here only when used (the cache's hashing loads node:crypto, the file reading node:fs/promises),
// so that an offline estimate loads neither.

/**
 * The definitions an offline command sees: the file's, plus the built-in catalogue. A file that
 * holds Langfuse-managed definitions (a saved `models list --all --json`) brings its own
 * built-in set, which then replaces the bundled catalogue.
 */
export function offlineDefinitions(fromFile: readonly ModelDefinition[] = []): { definitions: ModelDefinition[]; builtIn: 'catalogue' | 'file' } {
  if (fromFile.some((d) => d.isLangfuseManaged)) return { definitions: [...fromFile], builtIn: 'file' };
  return { definitions: [...fromFile, ...builtInDefinitions()], builtIn: 'catalogue' };
}

/**
 * The offline definitions that matching `model` must look at: as `offlineDefinitions`, but without
 * the catalogue's definitions whose pattern, known at build time, certainly does not match it
 * (`omitted` counts them). They could take no part in the result, and an `estimate` of one name
 * then builds a definition or two of the catalogue, not all of them.
 */
function offlineCandidates(fromFile: readonly ModelDefinition[], model: string): { definitions: ModelDefinition[]; builtIn: 'catalogue' | 'file'; omitted: number } {
  if (fromFile.some((d) => d.isLangfuseManaged)) return { definitions: [...fromFile], builtIn: 'file', omitted: 0 };
  const candidates = builtInCandidates(model);
  return { definitions: [...fromFile, ...candidates], builtIn: 'catalogue', omitted: catalogueInfo().count - candidates.length };
}

export type DefinitionsMode = 'auto' | 'offline' | 'remote';

/** --offline and --remote pick the source of definitions; neither lets the configuration decide. */
export function definitionsMode(opts: { offline?: unknown; remote?: unknown }): DefinitionsMode {
  if (opts.offline === true && opts.remote === true) throw new UsageError('use --offline or --remote, not both');
  return opts.offline === true ? 'offline' : opts.remote === true ? 'remote' : 'auto';
}

/** Which definitions a command used, for its output (`definitions` in --json). */
export interface DefinitionsOrigin {
  /** `project`: the configured server's; `catalogue`: the built-in catalogue; `file`: the models file's own built-in set. */
  source: 'project' | 'catalogue' | 'file';
  /** Why this source: the flag, or what is (not) configured. */
  why: string;
  baseUrl: string | null;
  credentialsFrom: string | null;
  /** When the project's definitions were read from the server. */
  fetchedAt: string | null;
  cached: boolean;
  /** The catalogue's generation date, when it was used. */
  catalogue: { generatedAt: string; count: number } | null;
  modelsFile: string | null;
  total: number;
  custom: number;
  builtIn: number;
  /** Definitions of the models file that have errors and were set aside. */
  invalid: Array<{ position: number; modelName: string | null; errors: string[] }>;
}

export interface LoadedDefinitions {
  /**
   * What to match against. With `model` given to `loadDefinitions` and the built-in catalogue in
   * use, the catalogue's definitions that certainly do not match that name are left out (`origin`
   * counts every definition).
   */
  definitions: ModelDefinition[];
  origin: DefinitionsOrigin;
  /** Why a definition must not be used, by id (the stand-ins of invalid file definitions). */
  unusable: ReadonlyMap<string, string>;
}

export interface LoadOptions {
  mode: DefinitionsMode;
  modelsFile?: string | undefined;
  /** Accept a cached copy of the project's definitions at most this old (0: always ask the server). */
  maxAgeMs: number;
  /** The one model name the command matches, if it matches one (see `LoadedDefinitions.definitions`). */
  model?: string | undefined;
}

/** How long cached project definitions are used by commands that accept a slightly old copy. */
export const REMOTE_CACHE_TTL_MS = 10 * 60_000;

const OFFLINE_HINT = 'To use the built-in catalogue instead, pass --offline.';
const NOTHING_CONFIGURED = 'no profile or keys are configured';

/** Whether the rule picks the project's definitions, and why. Throws when the settings are unusable. */
async function chooseProject(ctx: Context, mode: DefinitionsMode): Promise<{ project: boolean; why: string }> {
  if (mode === 'offline') return { project: false, why: '--offline' };
  if (mode === 'remote') return { project: true, why: '--remote' };
  // Nothing that could select a server: no flag, no variable, no profile file. Decided without
  // loading the profile store, so a first `npx llmobs estimate` stays quick.
  if (!ctx.globals.profile && !ctx.globals.baseUrl && !ENVIRONMENT_VARIABLES.some((name) => ctx.env[name]) && !existsSync(join(configDir(ctx.env), 'config.json'))) {
    return { project: false, why: NOTHING_CONFIGURED };
  }
  const { describeConfig } = await import('../config/resolve.js');
  const view = describeConfig({ globals: ctx.globals, env: ctx.env, store: await ctx.profiles() });
  if (view.problem) throw withHint(view.problem, OFFLINE_HINT);
  if (view.credentialsFrom) return { project: true, why: view.profile ? `${view.credentialsFrom} is in use` : `${view.credentialsFrom} are set` };
  if (ctx.globals.profile || ctx.globals.baseUrl) return { project: true, why: ctx.globals.profile ? '--profile' : '--base-url' };
  return { project: false, why: NOTHING_CONFIGURED };
}

function withHint(error: CliError, extra: string): CliError {
  error.hint = error.hint ? `${error.hint}\n${extra}` : extra;
  return error;
}

/** The definitions a command matches and prices with, by the rule above. */
export async function loadDefinitions(ctx: Context, options: LoadOptions): Promise<LoadedDefinitions> {
  const fileModule = options.modelsFile === undefined ? undefined : await import('./models-file.js');
  const file = fileModule && (await fileModule.loadModelsFile(ctx, options.modelsFile!));
  const fromFile = file?.definitions ?? [];
  const { project, why } = await chooseProject(ctx, options.mode);

  let definitions: ModelDefinition[];
  // Built-in definitions left out of `definitions`, which cannot match `options.model`.
  let omitted = 0;
  let origin: Omit<DefinitionsOrigin, 'total' | 'custom' | 'builtIn' | 'invalid' | 'modelsFile'>;
  if (project) {
    if (fromFile.some((definition) => definition.isLangfuseManaged)) {
      throw new UsageError(`${file!.path} holds Langfuse-managed definitions, but the server provides those; with the project's definitions a models file may only add custom ones`, {
        hint: 'Use it offline (--offline), where its built-in definitions replace the catalogue.',
      });
    }
    let remote: RemoteDefinitions;
    try {
      const { loadRemoteDefinitions } = await import('./remote.js');
      remote = await loadRemoteDefinitions(ctx, { maxAgeMs: options.maxAgeMs });
    } catch (error) {
      if (options.mode === 'auto' && error instanceof CliError) throw withHint(error, OFFLINE_HINT);
      throw error;
    }
    definitions = [...fromFile, ...remote.definitions];
    origin = { source: 'project', why, baseUrl: remote.baseUrl, credentialsFrom: remote.credentialsFrom, fetchedAt: remote.fetchedAt, cached: remote.fromCache, catalogue: null };
  } else {
    const offline = options.model === undefined ? { ...offlineDefinitions(fromFile), omitted: 0 } : offlineCandidates(fromFile, options.model);
    definitions = offline.definitions;
    omitted = offline.omitted;
    const info = offline.builtIn === 'catalogue' ? catalogueInfo() : undefined;
    origin = {
      source: offline.builtIn,
      why,
      baseUrl: null,
      credentialsFrom: null,
      fetchedAt: null,
      cached: false,
      catalogue: info ? { generatedAt: info.generatedAt, count: info.count } : null,
    };
  }

  // Invalid definitions of the file stand in for themselves in matching, last among the custom ones.
  const unusable = new Map<string, string>();
  for (const item of file?.invalid ?? []) {
    const label = fileModule!.invalidLabel(file!.path, item);
    ctx.out.warn(`${label} set aside: ${item.errors.join('; ')}${item.standIn ? '' : ' (its pattern cannot be read, so no name can match it)'}`);
    if (item.standIn) {
      definitions.push(item.standIn);
      unusable.set(item.standIn.id, `${label} has errors: ${item.errors.join('; ')}`);
    }
  }
  const usable = definitions.filter((d) => !unusable.has(d.id));
  const custom = usable.filter((d) => !d.isLangfuseManaged).length;
  const full: DefinitionsOrigin = {
    ...origin,
    modelsFile: file?.path ?? null,
    total: usable.length + omitted,
    custom,
    builtIn: usable.length - custom + omitted,
    invalid: (file?.invalid ?? []).map(({ position, modelName, errors }) => ({ position, modelName, errors })),
  };
  ctx.trace(`models: ${describeOrigin(full)}`);
  return { definitions, origin: full, unusable };
}

/** Refuses a match on a definition that must not be used (a models file's invalid one). */
export function assertUsable(loaded: Pick<LoadedDefinitions, 'unusable'>, definition: Pick<ModelDefinition, 'id'> | null | undefined, model: string): void {
  const reason = definition ? loaded.unusable.get(definition.id) : undefined;
  if (reason !== undefined) {
    throw new UsageError(`"${model}" matches ${reason}`, { hint: 'Fix the definition (see: llmobs models lint --offline --models-file <file>); names it does not match are unaffected.' });
  }
}

/**
 * The model names closest to `model` among the definitions in use, for a name none of them
 * matches. With the catalogue in use that is all of it, also the definitions left out of
 * `definitions` as certain not to match.
 */
export function suggestModelNames(loaded: Pick<LoadedDefinitions, 'definitions' | 'origin' | 'unusable'>, model: string): string[] {
  const usable = loaded.definitions.filter((d) => !loaded.unusable.has(d.id));
  const builtIn = loaded.origin.source === 'catalogue' ? builtInDefinitions() : [];
  return closestNames(model, [...usable, ...builtIn].map((d) => d.modelName));
}

/** Where to see every model name of the definitions in use. */
export function listNamesHint(origin: DefinitionsOrigin): string {
  if (origin.source === 'project') return 'See every definition with: llmobs models list --all';
  if (origin.source === 'catalogue') return 'See every built-in definition with: llmobs models list --offline --all';
  return `See every definition in ${origin.modelsFile}.`;
}

/** One line for people: which definitions, from where, and why. */
export function describeOrigin(origin: DefinitionsOrigin): string {
  const counts = `${origin.total} definitions${origin.custom ? `, ${origin.custom} custom` : ''}`;
  let base: string;
  if (origin.source === 'project') {
    const when = origin.cached ? `a cached copy from ${origin.fetchedAt}` : 'fetched now';
    base = `the project's definitions at ${origin.baseUrl} (${origin.credentialsFrom ?? 'no credentials'}, ${when}; ${counts})`;
  } else if (origin.source === 'catalogue') {
    base = `the built-in catalogue (${counts}, generated ${origin.catalogue?.generatedAt.slice(0, 10) ?? 'at build time'})`;
  } else {
    base = `the built-in definitions in ${origin.modelsFile} (${counts})`;
  }
  const file = origin.modelsFile && origin.source !== 'file' ? ` with custom ones from ${origin.modelsFile}` : '';
  const why = origin.why.startsWith('--') ? `by ${origin.why}` : `because ${origin.why}`;
  return `${base}${file}, chosen ${why}`;
}
