// The prompts pages' own endpoints: every version of a prompt with its labels, the diff of two
// versions (the core of `llmobs prompts diff`), and moving a label with the guard of
// `llmobs labels set/promote --expect-current` (the version the label is expected to be on now).
// The guard and the move run in one transaction, so nothing can move the label in between.
import { NotFoundError, PreconditionError, UsageError } from '../../errors.js';
import { diffPrompts, type PromptSide } from '../../core/prompts/diff.js';
import { planSetLabel } from '../../core/prompts/label-plan.js';
import type { ChatItem } from '../../core/prompts/types.js';
import type { ServerReply } from '../http/router.js';
import type { Call, InternalApi } from './internal-api.js';

interface StoredVersion {
  name: string;
  version: number;
  labels: string[];
  type: 'text' | 'chat';
  prompt: string | ChatItem[];
  config: unknown;
}

const promptPath = (name: string) => `/api/public/v2/prompts/${encodeURIComponent(name)}`;

/** Every version of `name` as stored (references not resolved), newest first; undefined if none. */
function versionsOf(call: Call, name: string): StoredVersion[] | undefined {
  const list = call('GET', '/api/public/v2/prompts', new URLSearchParams({ name, limit: '100' }));
  if (list.status !== 200) return undefined;
  const meta = (list.body as { data: Array<{ name: string; versions: number[] }> }).data.find((p) => p.name === name);
  if (!meta) return undefined;
  const versions: StoredVersion[] = [];
  for (const version of [...meta.versions].sort((a, b) => b - a)) {
    const reply = call('GET', promptPath(name), new URLSearchParams({ version: String(version), resolve: 'false' }));
    if (reply.status === 200) versions.push(reply.body as StoredVersion);
  }
  return versions;
}

const notFound = (name: string): ServerReply => ({ status: 404, body: { message: `No prompt named ${JSON.stringify(name)}.` } });

export function promptVersions(api: InternalApi, params: URLSearchParams): ServerReply {
  const name = params.get('name') ?? '';
  const versions = api.reading((call) => versionsOf(call, name));
  return versions ? { status: 200, body: { name, versions } } : notFound(name);
}

/** One version of `name` as stored (references not resolved); undefined if there is none. */
function versionOf(call: Call, name: string, version: number): StoredVersion | undefined {
  // Version 0 would ask for the production version: the API takes it as none given.
  if (!Number.isInteger(version) || version < 1) return undefined;
  const reply = call('GET', promptPath(name), new URLSearchParams({ version: String(version), resolve: 'false' }));
  return reply.status === 200 ? (reply.body as StoredVersion) : undefined;
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
    const list = call('GET', '/api/public/v2/prompts', new URLSearchParams({ name, limit: '1' }));
    const known = list.status === 200 && (list.body as { data: Array<{ name: string }> }).data.some((p) => p.name === name);
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
      const versions = versionsOf(call, name);
      if (!versions) return notFound(name);
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
