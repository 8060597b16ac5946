// What `models pull`, `models status` and `models push` share: the definitions file, the
// project's own definitions as create bodies, and the plan between them.
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ApiClient } from '../../api/client.js';
import { listAllModels } from '../../api/models.js';
import type { ApiModel } from '../../api/schemas/models.js';
import type { Context } from '../../context.js';
import { unifiedDiff } from '../../core/unified-diff.js';
import { FileError, UsageError } from '../../errors.js';
import { checkDefinitionInput, checkModelDraft, checkPriceMagnitudes } from '../../core/models/checks.js';
import type { ModelDraft } from '../../core/models/draft.js';
import { buildCreateModelBody, type CreateModelBody } from '../../core/models/request.js';
import { type FileModel, type ModelAction, planModelSync, type ModelPlan, type ServerModel } from '../../core/models/sync-plan.js';
import { parseJsonOrYaml, readFileBounded, readTextInput, writeFileWhole } from '../../io/files.js';
import { InputTooLargeError } from '../../io/stdin.js';
import { stringify } from '../../io/yaml.js';
import { storedInput } from './draft-input.js';

export const DEFAULT_MODELS_FILE = 'models.yaml';

export const ModelSyncOptions = z.object({
  file: z.string().min(1, 'must not be empty').default(DEFAULT_MODELS_FILE),
});

/** A create body as it is compared and sent: no null tokenizer config (the same as none). */
export function bodyOf(draft: ModelDraft): CreateModelBody {
  const body = buildCreateModelBody(draft);
  if (body.tokenizerConfig === null) delete body.tokenizerConfig;
  return body;
}

/** The project's own definitions (all pages) and every id the server knows, built-in ones too. */
export async function readServerModels(client: ApiClient): Promise<{ models: ServerModel[]; raw: ApiModel[] }> {
  const all = await listAllModels(client);
  const models = all.map((model): ServerModel => {
    const draft = model.isLangfuseManaged ? undefined : checkModelDraft(storedInput(model), { unitDefault: 'TOKENS' }).draft;
    return { id: model.id, modelName: model.modelName, isLangfuseManaged: model.isLangfuseManaged, body: draft ? bodyOf(draft) : undefined };
  });
  return { models, raw: all };
}

/**
 * The definitions of a file, each checked as `models create` checks one: all errors of all
 * entries in one usage error (exit 2, nothing sent); warnings are printed.
 */
export async function readModelFile(ctx: Context, file: string): Promise<FileModel[]> {
  let text: string;
  try {
    text = await readTextInput(ctx, file);
  } catch (error) {
    if (error instanceof FileError && /: no such file$/.test(error.message)) {
      error.hint = `Write the project's definitions into it first: llmobs models pull --file ${file}`;
    }
    throw error;
  }
  const document = await parseJsonOrYaml(text, file);
  const entries = Array.isArray(document) ? document : isRecord(document) && Array.isArray(document.data) ? (document.data as unknown[]) : undefined;
  if (!entries) throw new UsageError(`${file} must hold a list of model definitions`, { hint: 'Start from the project\'s own: llmobs models pull' });
  const problems: string[] = [];
  const models: FileModel[] = [];
  entries.forEach((raw, index) => {
    const name = isRecord(raw) && typeof (raw.modelName ?? raw.name) === 'string' ? ` ("${String(raw.modelName ?? raw.name)}")` : '';
    const at = `definition ${index + 1}${name}`;
    if (isRecord(raw) && raw.id !== undefined && (typeof raw.id !== 'string' || raw.id === '')) {
      problems.push(`  ${at}, id: must be a non-empty string`);
      return;
    }
    if (isRecord(raw) && raw.isLangfuseManaged === true) {
      problems.push(`  ${at}: a built-in definition cannot be pushed; keep only the project's own definitions in the file`);
      return;
    }
    const checked = checkDefinitionInput(raw, { unitDefault: null });
    const issues = [...checked.issues, ...(checked.draft ? checkPriceMagnitudes(checked.draft) : [])];
    for (const issue of issues) {
      const where = `${at}${issue.path ? `, ${issue.path}` : ''}`;
      if (issue.severity === 'error') problems.push(`  ${where}: ${issue.message} [${issue.code}]`);
      else ctx.out.warn(`${file}: ${where}: ${issue.message} [${issue.code}]`);
    }
    if (checked.draft && !issues.some((issue) => issue.severity === 'error')) {
      models.push({ index, id: isRecord(raw) && typeof raw.id === 'string' ? raw.id : undefined, body: bodyOf(checked.draft) });
    }
  });
  if (problems.length > 0) {
    throw new UsageError(`${file} has definitions the server would reject or misread; nothing was sent:\n${problems.join('\n')}`, {
      hint: 'Check one definition at a time with: llmobs models lint --offline --models-file <file>',
    });
  }
  return models;
}

export function plan(file: FileModel[], server: ServerModel[], prune: boolean): ModelPlan {
  const result = planModelSync(file, server, { prune });
  if (result.problems.length > 0) {
    throw new UsageError(`the definitions cannot be matched to the server's; nothing was sent:\n${result.problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return result;
}

/** The file's form of a definition: its id first, prices as a map when they fit one. */
export function fileEntry(id: string, body: CreateModelBody): Record<string, unknown> {
  const entry: Record<string, unknown> = { id, modelName: body.modelName, matchPattern: body.matchPattern, unit: body.unit };
  if (body.startDate !== undefined) entry.startDate = body.startDate;
  if (body.tokenizerId !== undefined) entry.tokenizerId = body.tokenizerId;
  if (body.tokenizerConfig !== undefined) entry.tokenizerConfig = body.tokenizerConfig;
  if (body.pricingTiers) {
    const [tier] = body.pricingTiers;
    if (body.pricingTiers.length === 1 && tier && tier.isDefault && tier.name === 'Standard' && tier.conditions.length === 0) entry.prices = { ...tier.prices };
    else entry.pricingTiers = body.pricingTiers;
  } else {
    const prices: Record<string, number> = {};
    if (body.inputPrice !== undefined) prices.input = body.inputPrice;
    if (body.outputPrice !== undefined) prices.output = body.outputPrice;
    if (body.totalPrice !== undefined) prices.total = body.totalPrice;
    entry.prices = prices;
  }
  return entry;
}

/** A definitions file's text: JSON or YAML by its extension. */
export function modelsFileText(file: string, entries: ReadonlyArray<Record<string, unknown>>): string {
  return /\.json$/i.test(file) ? `${JSON.stringify(entries, null, 2)}\n` : stringify(entries, { lineWidth: 0, version: '1.2' });
}

/**
 * What `models pull` does with a file, given `text`, the server's definitions written out:
 * `write` it (no file, or --force), write it `unchanged` (the file has this text), leave an
 * `equivalent` file as it is (the same definitions in another spelling or order), or leave one
 * that `differs`. A file too large to read is not the server's definitions: it differs.
 */
export async function pullAction(ctx: Context, file: string, text: string, models: ServerModel[], force: boolean): Promise<'write' | 'unchanged' | 'equivalent' | 'differs'> {
  const existing = await readFileBounded(resolve(ctx.cwd, file)).catch((error: unknown) => (error instanceof InputTooLargeError ? error : undefined));
  if (existing === text) return 'unchanged';
  if (existing === undefined || force) return 'write';
  const local = await readModelFile(ctx, file).catch(() => undefined);
  const same = local !== undefined && planModelSync(local, models, { prune: true }).actions.every((a) => a.kind === 'unchanged');
  return same ? 'equivalent' : 'differs';
}

export async function writeModelsFile(ctx: Context, file: string, text: string): Promise<void> {
  await writeFileWhole(resolve(ctx.cwd, file), text, file);
}

/** What a plan entry is called in status and push output. */
export function statusOf(action: ModelAction, prune: boolean): string {
  if (action.kind === 'delete') return prune ? 'delete' : 'server only';
  return { unchanged: 'unchanged', create: 'new', replace: 'changed' }[action.kind];
}

export function nameOf(action: ModelAction): string {
  return action.kind === 'delete' || action.kind === 'unchanged' ? action.modelName : action.body.modelName;
}

/** The plan as a table: status, name, id. */
export function printPlanTable(ctx: Context, actions: readonly ModelAction[], prune: boolean): void {
  ctx.out.table([{ header: 'STATUS' }, { header: 'NAME' }, { header: 'ID' }], actions.map((a) => [statusOf(a, prune), nameOf(a), 'id' in a ? (a.id ?? '') : '']));
}

/** One entry of `models status --json`; a changed definition with its diff. */
export function actionJson(action: ModelAction, prune: boolean): Record<string, unknown> {
  return { status: statusOf(action, prune), modelName: nameOf(action), id: 'id' in action ? (action.id ?? null) : null, ...(action.kind === 'replace' ? { diff: actionDiff(action) } : {}) };
}

/** The server's definition against the file's, as a unified diff of their bodies. */
export function actionDiff(action: Extract<ModelAction, { kind: 'replace' }>): string {
  return unifiedDiff(`server ${action.id}`, `file definition ${action.index + 1}`, bodyText(action.before), bodyText(action.body), { context: 4 });
}

/** Compact JSON of a body for diffs: sorted keys, one field a line. */
export function bodyText(body: CreateModelBody | undefined): string {
  if (!body) return '(a definition llmobs cannot write back)\n';
  const sort = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sort) : isRecord(value) ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sort(value[key])])) : value;
  return `${JSON.stringify(sort(body), null, 2)}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
