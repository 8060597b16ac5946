// Prompt management as a Langfuse server does it (API.md 4.1–4.6, SEMANTICS.md e): versions from
// 1, `latest` on the newest version, each label on one version, one type and one set of tags per
// prompt, and references to other prompts resolved on GET against the labels they hold then.
import { randomUUID } from 'node:crypto';
import { parsePromptReferences, type ResolvedPrompt } from '../../core/prompts/references.js';
import { findVariablePlaceholderClashes } from '../../core/prompts/variables.js';
import { type Issue, HttpError, invalidRequest, invalidRequestData, notFound } from '../errors.js';
import { optionalDateTime, optionalInt, parseCreatePromptBody } from '../prompt-body.js';
import { assertNotReferenced, checkNewReferences, dependencyRows, dropDependencies, resolveStored } from '../prompt-dependencies.js';
import type { Handler, Route } from '../router.js';
import type { PromptRecord, ServerState } from '../state.js';
import { pageMeta, paginate, parsePagination } from '../validate.js';

const LATEST = 'latest';
const PRODUCTION = 'production';

function versionsOf(state: ServerState, name: string): PromptRecord[] {
  return state.prompts.filter((row) => row.name === name);
}

/** What GET answers: the stored row, its content resolved or as stored, the graph and `isActive`. */
function withReadFields(row: PromptRecord, resolved?: ResolvedPrompt) {
  return {
    ...row,
    ...(resolved ? { prompt: resolved.prompt } : {}),
    resolutionGraph: resolved?.graph ?? null,
    isActive: row.labels.includes(PRODUCTION),
  };
}

function touch(row: PromptRecord, at: string): void {
  row.updatedAt = at;
}

/** Gives `labels` to `target` and takes them from every other version of the prompt. */
function moveLabels(rows: PromptRecord[], target: PromptRecord, labels: readonly string[], at: string): void {
  const moving = new Set(labels);
  for (const row of rows) {
    if (row === target) continue;
    const kept = row.labels.filter((label) => !moving.has(label));
    if (kept.length !== row.labels.length) {
      row.labels = kept;
      touch(row, at);
    }
  }
  const merged = [...new Set([...target.labels, ...labels])];
  if (merged.length !== target.labels.length) {
    target.labels = merged;
    touch(target, at);
  }
}

const create: Handler = async (request, { store, now }) => {
  const input = parseCreatePromptBody(request.body);
  const row = await store.mutate((state) => {
    // Everything is checked before anything changes; mutate runs this synchronously, so two
    // creates of one name can never read the same highest version.
    const existing = versionsOf(state, input.name);
    const newest = existing.reduce<PromptRecord | undefined>((top, row) => (top && top.version > row.version ? top : row), undefined);
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
    // Resolved before anything changes, so references see the labels as they are now.
    const references = parsePromptReferences(input.prompt);
    checkNewReferences(state, { id, name: input.name, version, type: input.type, prompt: input.prompt, labels: input.labels }, references);
    const at = now().toISOString();
    const tags = input.tags ?? newest?.tags ?? [];
    const created: PromptRecord = {
      id,
      createdAt: at,
      updatedAt: at,
      projectId: state.project.id,
      createdBy: 'API',
      prompt: input.prompt,
      name: input.name,
      version,
      type: input.type,
      isActive: null,
      config: input.config,
      tags: [...tags],
      labels: [],
      commitMessage: input.commitMessage,
    };
    if (input.tags !== undefined) {
      for (const row of existing) {
        if (JSON.stringify(row.tags) !== JSON.stringify(input.tags)) {
          row.tags = [...input.tags];
          touch(row, at);
        }
      }
    }
    state.prompts.push(created);
    state.promptDependencies.push(...dependencyRows(state, id, references, at));
    moveLabels([...existing, created], created, [...input.labels, LATEST], at);
    return created;
  });
  return { status: 201, body: row };
};

const getOne: Handler = (request, { store }) => {
  const [name = ''] = request.params;
  const issues: Issue[] = [];
  // `version=0` is falsy on the server, so it means "no version".
  const version = optionalInt(request.query, 'version', issues) || undefined;
  const label = request.query.get('label') || undefined;
  const resolve = request.query.get('resolve');
  if (resolve !== null && resolve !== 'true' && resolve !== 'false') {
    issues.push({ code: 'invalid_value', values: ['true', 'false'], path: ['resolve'], message: 'Invalid option: expected one of "true"|"false"' });
  }
  if (issues.length) throw invalidRequestData(issues);
  if (version !== undefined && label !== undefined) throw invalidRequest('Cannot specify both version and label');

  const rows = versionsOf(store.state, name);
  const wanted = label ?? PRODUCTION;
  const row = version !== undefined ? rows.find((r) => r.version === version) : rows.find((r) => r.labels.includes(wanted));
  if (!row) throw notFound(`Prompt not found: '${name}' with ${version !== undefined ? `version ${version}` : `label '${wanted}'`}`);
  return { status: 200, body: withReadFields(row, resolve === 'false' ? undefined : resolveStored(store.state, row)) };
};

const list: Handler = (request, { store }) => {
  const { query } = request;
  const issues: Issue[] = [];
  let pagination = { page: 1, limit: 10 };
  try {
    pagination = parsePagination(query, 10);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    issues.push(...((error.body as { error: Issue[] }).error ?? []));
  }
  const version = optionalInt(query, 'version', issues);
  const from = optionalDateTime(query, 'fromUpdatedAt', issues);
  const to = optionalDateTime(query, 'toUpdatedAt', issues);
  if (issues.length) throw invalidRequestData(issues);
  const name = query.get('name') || undefined;
  const label = query.get('label') || undefined;
  const tag = query.get('tag') || undefined;

  // Filters apply to each version; the matching versions are then grouped by name.
  const groups = new Map<string, PromptRecord[]>();
  for (const row of store.state.prompts) {
    if (name !== undefined && row.name !== name) continue;
    if (label !== undefined && !row.labels.includes(label)) continue;
    if (tag !== undefined && !row.tags.includes(tag)) continue;
    if (version !== undefined && row.version !== version) continue;
    const updated = Date.parse(row.updatedAt);
    if (from !== undefined && updated < from) continue;
    if (to !== undefined && updated >= to) continue;
    const group = groups.get(row.name) ?? [];
    group.push(row);
    groups.set(row.name, group);
  }
  const items = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([promptName, rows]) => {
      const newest = rows.reduce((top, row) => (row.version > top.version ? row : top));
      return {
        name: promptName,
        versions: sortedUnique(rows.map((row) => row.version)),
        labels: sortedUnique(rows.flatMap((row) => row.labels)),
        tags: sortedUnique(rows.flatMap((row) => row.tags)),
        lastUpdatedAt: rows.map((row) => row.updatedAt).reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)),
        type: newest.type,
        lastConfig: newest.config,
      };
    });
  const meta = pageMeta(pagination, items.length);
  return { status: 200, body: { data: paginate(items, pagination), meta, pagination: meta } };
};

const remove: Handler = async (request, { store, now }) => {
  const [name = ''] = request.params;
  const issues: Issue[] = [];
  const version = optionalInt(request.query, 'version', issues);
  if (issues.length) throw invalidRequestData(issues);
  const label = request.query.get('label') || undefined;
  if (version !== undefined && label !== undefined) throw invalidRequest('Cannot specify both version and label');

  await store.mutate((state) => {
    const rows = versionsOf(state, name);
    const doomed = rows.filter((row) =>
      version !== undefined ? row.version === version : label !== undefined ? row.labels.includes(label) : true,
    );
    if (doomed.length === 0) throw notFound('Prompt not found');
    assertNotReferenced(state, name, doomed);
    state.prompts = state.prompts.filter((row) => !doomed.includes(row));
    dropDependencies(state, doomed);
    const remaining = rows.filter((row) => !doomed.includes(row));
    if (doomed.some((row) => row.labels.includes(LATEST)) && !remaining.some((row) => row.labels.includes(LATEST))) {
      const highest = remaining.reduce<PromptRecord | undefined>((top, row) => (top && top.version > row.version ? top : row), undefined);
      if (highest) {
        highest.labels = [...highest.labels, LATEST];
        touch(highest, now().toISOString());
      }
    }
  });
  return { status: 204 };
};

const addLabels: Handler = async (request, { store, now }) => {
  const [name = '', versionText = ''] = request.params;
  const issues: Issue[] = [];
  if (!/^\d+$/.test(versionText)) {
    issues.push({ code: 'invalid_type', expected: 'int', path: ['version'], message: `Invalid input: expected int, received ${JSON.stringify(versionText)}` });
  }
  const body = request.body as { newLabels?: unknown } | undefined;
  const newLabels = body?.newLabels;
  if (!Array.isArray(newLabels)) issues.push({ code: 'invalid_type', expected: 'array', path: ['newLabels'], message: 'Invalid input: expected array' });
  else {
    newLabels.forEach((label: unknown, index) => {
      if (typeof label !== 'string') issues.push({ code: 'invalid_type', expected: 'string', path: ['newLabels', index], message: 'Invalid input: expected string' });
    });
  }
  if (issues.length) throw invalidRequestData(issues);
  const labels = [...new Set(newLabels as string[])];
  if (labels.includes(LATEST)) throw invalidRequest("Label 'latest' is always assigned to the latest prompt version");
  const version = Number(versionText);

  const row = await store.mutate((state) => {
    const rows = versionsOf(state, name);
    const target = rows.find((r) => r.version === version);
    if (!target) throw notFound(`Prompt '${name}' version ${version} not found in project`);
    moveLabels(rows, target, labels, now().toISOString());
    return target;
  });
  return { status: 200, body: row };
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
