// Prompt management as a Langfuse server does it (API.md 4.1–4.6, SEMANTICS.md e): versions from
// 1, `latest` on the newest version, each label on one version, one type and one set of tags per
// prompt, and references to other prompts resolved on GET against the labels they hold then.
// Each handler runs in its request's transaction, so two creates of one name never read the same
// highest version, and a failure leaves every version as it was.
import { randomUUID } from 'node:crypto';
import { parsePromptReferences, type ResolvedPrompt } from '../../core/prompts/references.js';
import { findVariablePlaceholderClashes } from '../../core/prompts/variables.js';
import { invalidRequest, invalidRequestData, notFound } from '../http/errors.js';
import type { Handler, Route } from '../http/router.js';
import type { PromptRecord } from '../records.js';
import type { Tx } from '../store/index.js';
import { parseCreatePromptBody, parseLabelsPatch, parsePromptByNameQuery, parsePromptsListQuery } from './prompt-body.js';
import { assertNotReferenced, checkNewReferences, dependencyRows, resolveStored } from './prompt-dependencies.js';
import { pageMeta } from './query.js';

const LATEST = 'latest';
const PRODUCTION = 'production';

/** What GET answers: the stored row, its content resolved or as stored, the graph and `isActive`. */
function withReadFields(row: PromptRecord, resolved?: ResolvedPrompt) {
  return {
    ...row,
    ...(resolved ? { prompt: resolved.prompt } : {}),
    resolutionGraph: resolved?.graph ?? null,
    isActive: row.labels.includes(PRODUCTION),
  };
}

/** Takes `labels` from every version of the prompt that holds one, except `keep`. */
function takeLabels(tx: Tx, name: string, labels: readonly string[], at: string, keep?: string): void {
  const moving = new Set(labels);
  for (const holder of tx.prompts.holdersOf(name, labels)) {
    if (holder.id === keep) continue;
    tx.prompts.update({ ...holder, labels: holder.labels.filter((label) => !moving.has(label)), updatedAt: at });
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) => JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());

const create: Handler = (request, tx, { now }) => {
  const input = parseCreatePromptBody(request.body);
  const newest = tx.prompts.newest(input.name);
  if (newest && newest.type !== input.type) {
    throw invalidRequest('Previous versions have different prompt type. Create a new prompt with a different name.');
  }
  if (Array.isArray(input.prompt)) {
    const clashes = findVariablePlaceholderClashes(input.prompt);
    if (clashes.length) {
      throw invalidRequest(`Cannot create prompt, variables and placeholders must be unique, the following are not: ${clashes.join(', ')}`);
    }
  }
  const id = randomUUID();
  const version = (newest?.version ?? 0) + 1;
  const labels = [...new Set([...input.labels, LATEST])];
  // Resolved before anything changes, so references see the labels as they are now.
  const references = parsePromptReferences(input.prompt);
  checkNewReferences(tx, { id, name: input.name, version, type: input.type, prompt: input.prompt, labels: input.labels }, references);
  const at = now().toISOString();
  const tags = [...new Set(input.tags ?? newest?.tags ?? [])];
  const projectId = tx.project.get()!.id;
  const created: PromptRecord = {
    id,
    createdAt: at,
    updatedAt: at,
    projectId,
    createdBy: 'API',
    prompt: input.prompt,
    name: input.name,
    version,
    type: input.type,
    isActive: null,
    config: input.config,
    tags,
    labels,
    commitMessage: input.commitMessage,
  };
  takeLabels(tx, input.name, labels, at);
  // Tags are one set per prompt: a create whose set differs rewrites every version.
  if (newest && !sameSet(tags, newest.tags)) tx.prompts.retag(input.name, tags, at);
  tx.prompts.insert(created, dependencyRows(projectId, id, references, at));
  return { status: 201, body: created };
};

const getOne: Handler = (request, tx) => {
  const [name = ''] = request.params;
  const query = parsePromptByNameQuery(request.query);
  // `version=0` is falsy on the server, so it means "no version".
  const version = query.version || undefined;
  const label = query.label;
  if (version !== undefined && label !== undefined) throw invalidRequest('Cannot specify both version and label');
  const wanted = label ?? PRODUCTION;
  const row = version !== undefined ? tx.prompts.get(name, version) : tx.prompts.withLabel(name, wanted);
  if (!row) throw notFound(`Prompt not found: '${name}' with ${version !== undefined ? `version ${version}` : `label '${wanted}'`}`);
  return { status: 200, body: withReadFields(row, query.resolve ? resolveStored(tx, row) : undefined) };
};

const list: Handler = (request, tx) => {
  const query = parsePromptsListQuery(request.query);
  const pagination = { page: query.page, limit: query.limit };
  const { groups, totalNames } = tx.prompts.list(
    {
      name: query.name || undefined,
      label: query.label || undefined,
      tag: query.tag || undefined,
      version: query.version ?? undefined,
      fromUpdatedAt: query.fromUpdatedAt ? new Date(Date.parse(query.fromUpdatedAt)).toISOString() : undefined,
      toUpdatedAt: query.toUpdatedAt ? new Date(Date.parse(query.toUpdatedAt)).toISOString() : undefined,
    },
    { limit: pagination.limit, offset: (pagination.page - 1) * pagination.limit },
  );
  // One entry per name, from its matching versions (the store gives them by name, then version).
  const data = groups.map((group) => ({
    name: group.name,
    versions: sortedUnique(group.versions),
    labels: sortedUnique(group.labels.flat()),
    tags: sortedUnique(group.tags.flat()),
    lastUpdatedAt: group.updatedAts.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)),
    type: group.newest.type,
    lastConfig: group.newest.config,
  }));
  const meta = pageMeta(pagination, totalNames);
  return { status: 200, body: { data, meta, pagination: meta } };
};

const remove: Handler = (request, tx, { now }) => {
  const [name = ''] = request.params;
  const query = parsePromptByNameQuery(request.query);
  // Zero and "" count as not given, as on the server.
  const version = query.version || undefined;
  const label = query.label || undefined;
  if (version !== undefined && label !== undefined) throw invalidRequest('Cannot specify both version and label');

  const rows = tx.prompts.versions(name);
  const doomed = rows.filter((row) => (version !== undefined ? row.version === version : label !== undefined ? row.labels.includes(label) : true));
  if (doomed.length === 0) throw notFound('Prompt not found');
  const doomedIds = new Set(doomed.map((row) => row.id));
  const remaining = rows.filter((row) => !doomedIds.has(row.id));
  assertNotReferenced(tx, name, doomed, remaining);
  tx.prompts.delete([...doomedIds]);
  if (doomed.some((row) => row.labels.includes(LATEST)) && !remaining.some((row) => row.labels.includes(LATEST))) {
    const highest = remaining[remaining.length - 1];
    if (highest) tx.prompts.update({ ...highest, labels: [...highest.labels, LATEST], updatedAt: now().toISOString() });
  }
  return { status: 204 };
};

const addLabels: Handler = (request, tx, { now }) => {
  const [name = '', versionText = ''] = request.params;
  if (!/^\d+$/.test(versionText)) {
    throw invalidRequestData([{ code: 'invalid_type', expected: 'int', path: ['version'], message: `Invalid input: expected int, received ${JSON.stringify(versionText)}` }]);
  }
  const newLabels = parseLabelsPatch(request.body);
  const version = Number(versionText);
  const target = tx.prompts.get(name, version);
  if (!target) throw notFound(`Prompt '${name}' version ${version} not found in project`);
  const at = now().toISOString();
  // The server sets `new Set([...newLabels, ...labels])`: new labels first.
  takeLabels(tx, name, newLabels, at, target.id);
  const updated: PromptRecord = { ...target, labels: [...new Set([...newLabels, ...target.labels])], updatedAt: at };
  tx.prompts.update(updated);
  return { status: 200, body: updated };
};

function sortedUnique<T extends string | number>(values: T[]): T[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export const promptRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/v2\/prompts\/([^/]+)\/versions\/([^/]+)$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { PATCH: addLabels },
  },
  {
    pattern: /^\/api\/public\/v2\/prompts\/([^/]+)$/,
    auth: 'prompts',
    methodNotAllowedClass: true,
    methods: { GET: getOne, DELETE: remove },
  },
  {
    pattern: /^\/api\/public\/v2\/prompts$/,
    auth: 'prompts',
    methodNotAllowedClass: true,
    methods: { GET: list, POST: create },
  },
];
