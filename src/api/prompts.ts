// The v2 prompt endpoints (API.md 4). A 404 is re-thrown with what it means for a prompt: which
// of name, version or label is missing, found out with one extra list request only on failure.
import { ApiError, ApiNotFoundError, NotFoundError, PreconditionError, UsageError } from '../errors.js';
import type { CreatePromptBody } from '../core/prompts/create-body.js';
import { promptPathSegment } from '../core/prompts/name.js';
import type { PromptSelector } from '../core/prompts/selector.js';
import type { ServerPromptState, ServerVersion } from '../core/prompts/sync-plan.js';
import type { SourceVersion } from '../core/prompts/copy-plan.js';
import type { VersionLabels } from '../core/prompts/types.js';
import type { ApiClient, Query } from './client.js';
import { mapLimit } from './map-limit.js';
import { serverVersionOf, sourceVersionOf } from './prompt-content.js';
import { type Page } from './schemas/common.js';
import { type Prompt, type PromptMeta, PromptMetaPageSchema, PromptMetaSchema, PromptSchema } from './schemas/prompts.js';
import { maxOf } from '../core/objects.js';
import { compactVersions } from '../core/prompts/version-ranges.js';

export { contentOf, diffSideOf, serverVersionOf, sourceVersionOf } from './prompt-content.js';
export { compactVersions } from '../core/prompts/version-ranges.js';

export const PROMPTS_PATH = '/api/public/v2/prompts';

/** Requests in flight when one command reads many versions. */
export const READ_CONCURRENCY = 4;

export function promptPath(name: string): string {
  // URL parsers treat `.` and `..` (even as %2E) as "this" and "parent" directory: such a path
  // would reach another endpoint, so the request is not sent at all.
  if (name === '.' || name === '..') {
    throw new UsageError(`a prompt named '${name}' cannot be addressed in a URL`, { hint: 'Only creating it works; use another name.' });
  }
  return `${PROMPTS_PATH}/${promptPathSegment(name)}`;
}

export interface PromptFilters {
  name?: string | undefined;
  label?: string | undefined;
  tag?: string | undefined;
  /** Versions updated at or after this time (ISO 8601 with Z or an offset). */
  fromUpdatedAt?: string | undefined;
  /** Versions updated before this time. */
  toUpdatedAt?: string | undefined;
}

export async function createPrompt(client: ApiClient, body: CreatePromptBody): Promise<Prompt> {
  return (await client.request('POST', PROMPTS_PATH, { body, schema: PromptSchema })).data;
}

/** How a create that collided with concurrent creates of the same prompt is tried again. */
export interface CreateRetry {
  /** Tries after the first (--retries). */
  retries: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Told before each wait. */
  onConflict?: ((delayMs: number) => void) | undefined;
}

/**
 * POST is never retried by the client, since a repeat could create a second version. The one
 * exception is the server's own "two creates collided" answer: nothing was created, and the
 * server asks for a delay, so the create is tried again after a backoff. A refusal the user can
 * act on gets a hint.
 */
export async function createPromptRetrying(client: ApiClient, body: CreatePromptBody, retry: CreateRetry): Promise<Prompt> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await createPrompt(client, body);
    } catch (error) {
      if (isVersionConflict(error) && attempt < retry.retries) {
        const delay = Math.round(250 * 2 ** attempt * (0.5 + retry.random() / 2));
        retry.onConflict?.(delay);
        await retry.sleep(delay);
        continue;
      }
      throw explainCreateError(error, body.name);
    }
  }
}

/** A create that lost the race for a version number; the server created nothing. */
function isVersionConflict(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && /unique constraint|concurrent prompt creation/i.test(error.serverMessage ?? '');
}

function explainCreateError(error: unknown, name: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  if (/different prompt type/i.test(error.serverMessage ?? '')) {
    error.hint = `Every version of '${name}' has the same type; create the other type under a new name.`;
  } else if (isVersionConflict(error)) {
    error.hint = 'Other versions of this prompt were being created at the same moment. Nothing was created; run the command again.';
  }
  return error;
}

export interface GetOptions {
  /** false: the stored content with dependency tags, bypassing the server's cache. */
  resolve?: boolean;
}

/** One version; without version or label the server serves `production`. */
export async function getPrompt(client: ApiClient, name: string, selector: PromptSelector, options: GetOptions = {}): Promise<Prompt> {
  const query: Query = { ...selectorQuery(selector), resolve: options.resolve === false ? 'false' : undefined };
  try {
    return (await client.request('GET', promptPath(name), { query, schema: PromptSchema })).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      error.hint ??= 'A prompt it references is missing or not a text prompt, or the references now nest too deep or form a cycle (labels moved since it was created). See the stored content with --no-resolve.';
    }
    throw await explainNotFound(client, error, name, selector);
  }
}

export async function listPrompts(client: ApiClient, filters: PromptFilters, page: { page?: number; limit?: number } = {}): Promise<Page<PromptMeta>> {
  const query: Query = { ...filters, page: page.page, limit: page.limit };
  return (await client.request('GET', PROMPTS_PATH, { query, schema: PromptMetaPageSchema })).data;
}

export async function listAllPrompts(client: ApiClient, filters: PromptFilters): Promise<PromptMeta[]> {
  return client.getAllPages(PROMPTS_PATH, PromptMetaSchema, { ...filters }, 100);
}

/** A prompt's versions and labels from the list endpoint (exact name match), or undefined. */
export async function findPromptMeta(client: ApiClient, name: string): Promise<PromptMeta | undefined> {
  const page = await listPrompts(client, { name }, { limit: 1 });
  return page.data.find((meta) => meta.name === name);
}

export async function requirePromptMeta(client: ApiClient, name: string): Promise<PromptMeta> {
  const meta = await findPromptMeta(client, name);
  if (!meta) throw promptNotFound(name);
  return meta;
}

/** `PATCH .../versions/{v}` with `{newLabels}`: adds the labels there and takes them from other versions. */
export async function addLabels(client: ApiClient, name: string, version: number, newLabels: string[]): Promise<Prompt> {
  try {
    const path = `${promptPath(name)}/versions/${version}`;
    return (await client.request('PATCH', path, { body: { newLabels }, schema: PromptSchema })).data;
  } catch (error) {
    throw await explainNotFound(client, error, name, { version });
  }
}

export async function deletePrompt(client: ApiClient, name: string, selector: PromptSelector): Promise<void> {
  try {
    await client.request('DELETE', promptPath(name), { query: selectorQuery(selector) });
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && /depending on/i.test(error.serverMessage ?? '')) {
      error.hint = 'The prompt versions listed reference it with @@@langfusePrompt tags; delete them first.';
    }
    throw await explainNotFound(client, error, name, selector);
  }
}

/** Several versions, a few at a time, in the order asked. */
export async function getVersions(client: ApiClient, name: string, versions: readonly number[]): Promise<Prompt[]> {
  return mapLimit(versions, READ_CONCURRENCY, (version) => getPrompt(client, name, { version }, { resolve: false }));
}

export interface LabelState {
  meta: PromptMeta;
  /** Every version with its labels, ascending. */
  versions: VersionLabels[];
}

/**
 * Which version holds each label. The API has no such listing: the list endpoint gives the
 * prompt's versions and labels without the link, so each label is fetched once (1 + labels
 * requests, not 1 + versions). A version no label points at has none.
 */
export async function readLabelState(client: ApiClient, name: string): Promise<LabelState> {
  const meta = await requirePromptMeta(client, name);
  const holders = await mapLimit(meta.labels, READ_CONCURRENCY, async (label) => {
    try {
      return await getPrompt(client, name, { label }, { resolve: false });
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new PreconditionError(`the label '${label}' of prompt '${name}' disappeared while the labels were being read`, {
          hint: 'Someone changed the prompt meanwhile; run the command again.',
        });
      }
      throw error;
    }
  });
  const labels = new Map<number, string[]>(meta.versions.map((version) => [version, []]));
  for (const holder of holders) labels.set(holder.version, holder.labels);
  const versions = [...labels].sort(([a], [b]) => a - b).map(([version, list]) => ({ version, labels: list }));
  return { meta, versions };
}

function selectorQuery(selector: PromptSelector): Query {
  if ('version' in selector) return { version: selector.version };
  if ('label' in selector) return { label: selector.label };
  return {};
}

export function promptNotFound(name: string): NotFoundError {
  return new NotFoundError(`prompt '${name}' not found`, {
    status: 404,
    hint: 'Names are case-sensitive and include their folders (team/app/summary). List them with: llmobs prompts list',
  });
}

/**
 * Turns the server's 404 into which part is missing. Other errors, and 404s that are not the
 * API's "not found" (a wrong base URL), pass through unchanged.
 */
async function explainNotFound(client: ApiClient, error: unknown, name: string, selector: PromptSelector): Promise<unknown> {
  if (!(error instanceof ApiNotFoundError) || !/not found/i.test(error.serverMessage ?? '')) return error;
  let meta: PromptMeta | undefined;
  try {
    meta = await findPromptMeta(client, name);
  } catch {
    return error;
  }
  if (!meta) return promptNotFound(name);
  const options = { status: 404, cause: error };
  const versions = `Its versions: ${compactVersions(meta.versions)}.`;
  const labels = `Its labels: ${meta.labels.join(', ')}.`;
  if ('version' in selector) {
    return new NotFoundError(`prompt '${name}' has no version ${selector.version}`, { ...options, hint: versions });
  }
  if ('label' in selector) {
    return new NotFoundError(`prompt '${name}' has no version labelled '${selector.label}'`, { ...options, hint: labels });
  }
  return new NotFoundError(`prompt '${name}' has no version labelled 'production' — the server's default when no --version/--label is given`, {
    ...options,
    hint: `${labels} Pick one with --label (e.g. --label latest) or a version with --version.`,
  });
}

// ---- prompts as files (pull, status, push, copy) ----------------------------------------------

/** Reads in flight when a command reads a version of many prompts. */
export const SYNC_READ_CONCURRENCY = 8;

/** Every prompt of the project by name (all pages of the list endpoint, 100 a page). */
export async function promptIndex(client: ApiClient): Promise<Map<string, PromptMeta>> {
  const metas = await listAllPrompts(client, {});
  // A prompt always has a version; an entry without one (a broken answer) cannot be compared.
  return new Map(metas.filter((meta) => meta.versions.length > 0).map((meta) => [meta.name, meta]));
}

export interface SyncWant {
  name: string;
  type: 'text' | 'chat';
  /** Labels the plan needs to know the holder of. */
  labels: readonly string[];
}

/**
 * What the planner needs to know about the server: every prompt's summary from the list, plus,
 * for each wanted prompt of the same type, its latest version, and the holder of each wanted label
 * that the latest version does not carry. That is one request per prompt in the usual case (the
 * list gives which labels exist; only a label away from the latest version costs one more).
 */
export async function readSyncState(
  client: ApiClient,
  index: ReadonlyMap<string, PromptMeta>,
  wants: readonly SyncWant[],
  onRead?: (done: number, total: number) => void,
): Promise<Map<string, ServerPromptState>> {
  const state = new Map<string, ServerPromptState>();
  for (const meta of index.values()) {
    state.set(meta.name, { name: meta.name, type: meta.type, versions: meta.versions, labels: meta.labels, tags: meta.tags });
  }
  const fetchable = wants.filter((want) => index.get(want.name)?.type === want.type);
  let done = 0;
  await mapLimit(fetchable, SYNC_READ_CONCURRENCY, async (want) => {
    const meta = index.get(want.name)!;
    const current = state.get(want.name)!;
    const latest = serverVersionOf(await getPrompt(client, want.name, { version: maxOf(meta.versions) }, { resolve: false }));
    const labelled: Record<string, ServerVersion> = {};
    for (const label of want.labels) {
      if (!meta.labels.includes(label) || latest.labels.includes(label) || labelled[label]) continue;
      const holder = serverVersionOf(await getPrompt(client, want.name, { label }, { resolve: false }));
      for (const held of holder.labels) labelled[held] = holder;
    }
    state.set(want.name, { ...current, latest, labelled });
    onRead?.(++done, fetchable.length);
  });
  return state;
}

/**
 * The versions of one prompt that a copy needs: every version (`all`), or the latest version and
 * each version holding a label (one request each; a version holding several labels once).
 * `labels` limits which labelled versions are read (`latest` then means the latest version).
 */
export async function readLabelledVersions(
  client: ApiClient,
  meta: PromptMeta,
  options: { all: boolean; labels?: readonly string[] | undefined },
): Promise<SourceVersion[]> {
  if (options.all) {
    const sorted = [...meta.versions].sort((a, b) => a - b);
    return (await getVersions(client, meta.name, sorted)).map(sourceVersionOf);
  }
  const found: SourceVersion[] = [];
  const holds = (label: string) => found.some((v) => v.labels.includes(label));
  const wanted = options.labels;
  if (!wanted || wanted.includes('latest')) {
    found.push(sourceVersionOf(await getPrompt(client, meta.name, { version: maxOf(meta.versions) }, { resolve: false })));
  }
  for (const label of meta.labels) {
    if (label === 'latest' || holds(label) || (wanted && !wanted.includes(label))) continue;
    found.push(sourceVersionOf(await getPrompt(client, meta.name, { label }, { resolve: false })));
  }
  return found;
}
