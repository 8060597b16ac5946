// The prompts pages' own endpoints: a prompt's versions with their labels a page at a time, the
// diff of two versions (the core of `llmobs prompts diff`), and moving a label with the guard of
// `llmobs labels set/promote --expect-current` (the version the label is expected to be on now).
// Each reads the versions it needs, never every version of the prompt: a prompt of any number of
// versions answers as fast as a small one. The guard and the move run in one transaction, so
// nothing can move the label in between.
import { NotFoundError, PreconditionError, UsageError } from '../../errors.js';
import { diffPrompts, type PromptSide } from '../../core/prompts/diff.js';
import { planSetLabel } from '../../core/prompts/label-plan.js';
import type { ChatItem } from '../../core/prompts/types.js';
import { rowsToRead } from '../http/slice-size.js';
import type { ServerReply } from '../http/router.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { Call, InternalApi } from './internal-api.js';

interface StoredVersion {
  name: string;
  version: number;
  labels: string[];
  type: 'text' | 'chat';
  prompt: string | ChatItem[];
  config: unknown;
}

/** Versions a page of the prompt page shows, unless their stored text is large. */
export const PAGE_LIMIT = 50;
const MAX_LIMIT = 100;

const promptPath = (name: string) => `/api/public/v2/prompts/${encodeURIComponent(name)}`;
const notFound = (name: string): ServerReply => ({ status: 404, body: { message: `No prompt named ${JSON.stringify(name)}.` } });

/** One version of `name` as stored (references not resolved); undefined if there is none. */
function versionOf(call: Call, name: string, version: number): StoredVersion | undefined {
  // Version 0 would ask for the production version: the API takes it as none given.
  if (!Number.isInteger(version) || version < 1) return undefined;
  const reply = call('GET', promptPath(name), new URLSearchParams({ version: String(version), resolve: 'false' }));
  return reply.status === 200 ? (reply.body as StoredVersion) : undefined;
}

/** The version of `name` that holds `label`, as stored; undefined if none does. */
function holderOf(call: Call, name: string, label: string): StoredVersion | undefined {
  const reply = call('GET', promptPath(name), new URLSearchParams({ label, resolve: 'false' }));
  return reply.status === 200 ? (reply.body as StoredVersion) : undefined;
}

/**
 * A page of the versions of `name`, newest first: at most `limit`, fewer when their stored text
 * is large (as a slice of a long answer reads), and a cursor for the next. With the first page,
 * the number of versions and which version holds each label, which the page needs whatever
 * versions it shows. The page's numbers, the count and the labels come from the store: the API
 * gives version numbers only with the prompts list, which lists every version of the prompt.
 * The versions themselves are the API's answers.
 */
export function promptVersions(api: InternalApi, params: URLSearchParams): ServerReply {
  const name = params.get('name') ?? '';
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(params.get('limit') ?? PAGE_LIMIT) || PAGE_LIMIT));
  const cursor = decodeCursor<{ before: number }>(params.get('cursor'), ({ before }) => (Number.isInteger(before) && (before as number) > 0 ? { before: before as number } : undefined));
  if (cursor === null) return { status: 400, body: { message: 'cursor: not one this server gave' } };
  return api.reading((call, tx) => {
    // One more than the page: whether another follows.
    const sizes = tx.prompts.versionSizes(name, cursor?.before, limit + 1);
    if (sizes.length === 0 && (cursor === undefined || tx.prompts.versionSizes(name, undefined, 1).length === 0)) return notFound(name);
    const bytes = sizes.map((entry) => entry.bytes);
    const { take, found } = rowsToRead({ total: () => ({ bytes: bytes.reduce((a, b) => a + b, 0), count: bytes.length }), each: () => bytes }, limit);
    const versions = sizes.slice(0, take).flatMap(({ version }) => versionOf(call, name, version) ?? []);
    const last = versions[versions.length - 1];
    const nextCursor = found > take && last ? encodeCursor({ before: last.version }) : null;
    if (cursor) return { status: 200, body: { name, versions, nextCursor } };
    return { status: 200, body: { name, versions, nextCursor, total: tx.prompts.versionCount(name), labels: tx.prompts.labelHolders(name) } };
  });
}

/** The diff of two versions: those two are read, not every version of the prompt. */
export function promptDiff(api: InternalApi, params: URLSearchParams): ServerReply {
  const name = params.get('name') ?? '';
  const from = Number(params.get('from'));
  const to = Number(params.get('to'));
  return api.reading((call) => {
    const side = (n: number): PromptSide | undefined => {
      const v = versionOf(call, name, n);
      return v && { name, version: v.version, labels: v.labels, prompt: v.prompt, config: v.config };
    };
    const a = side(from);
    const b = side(to);
    if (a && b) return { status: 200, body: diffPrompts(a, b) };
    // `latest` is on the newest version of every prompt: whether the prompt exists.
    const known = holderOf(call, name, 'latest') !== undefined;
    return known ? { status: 404, body: { message: `No version ${a ? to : from} of ${JSON.stringify(name)}.` } } : notFound(name);
  });
}

export function moveLabel(api: InternalApi, body: unknown): ServerReply {
  const input = body as { name?: unknown; label?: unknown; version?: unknown; expectCurrent?: unknown };
  if (typeof input?.name !== 'string' || typeof input.label !== 'string' || !Number.isInteger(input.version)) {
    return { status: 400, body: { message: 'name, label and version are required' } };
  }
  if (input.expectCurrent !== null && !Number.isInteger(input.expectCurrent)) return { status: 400, body: { message: 'expectCurrent: the version the label is on now, or null for none' } };
  const { name, label } = input;
  const version = input.version as number;
  const expectCurrent = input.expectCurrent as number | null;
  try {
    return api.atomically((call) => {
      // The plan needs the target and the label's holder. Without the target, the newest version
      // (`latest` is always on it) tells whether the prompt exists and which version is highest.
      const target = versionOf(call, name, version) ?? holderOf(call, name, 'latest');
      if (!target) return notFound(name);
      const holder = holderOf(call, name, label);
      const versions = holder && holder.version !== target.version ? [target, holder] : [target];
      const plan = planSetLabel(versions, label, version, { expectCurrent });
      if (plan.update) {
        const reply = call('PATCH', `${promptPath(name)}/versions/${plan.update.version}`, undefined, { newLabels: plan.update.newLabels });
        if (reply.status !== 200) return reply;
      }
      return { status: 200, body: { name, label, previousVersion: plan.previousVersion, version: plan.targetVersion, noop: plan.noop } };
    });
  } catch (error) {
    // The core's refusals: a bad label, an unknown version, the label moved meanwhile.
    if (error instanceof PreconditionError) return { status: 409, body: { message: error.message } };
    if (error instanceof NotFoundError) return { status: 404, body: { message: error.message } };
    if (error instanceof UsageError) return { status: 400, body: { message: error.message } };
    throw error;
  }
}
