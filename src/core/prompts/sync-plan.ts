// What `prompts push` would send to make the server match a directory of prompt files, and what
// `prompts status` shows. Pure: the server's state comes in, a plan of writes comes out, and the
// command that executes it is the only code that writes.
//
// For each file:
//   - a prompt the server does not have is created (version 1);
//   - a new version is created only when the file differs from the server's latest version in
//     type, prompt or config (and, with labels wanted, only when one of them does not already
//     point at a version equal to the file);
//   - wanted labels (the file's `labels` and --label) that do not point at a version equal to the
//     file go with the new version, or, when the latest version equals the file, are moved there
//     with one label PATCH;
//   - tags the file lists that differ from the prompt's need a new version (the API sets tags only
//     on create): it carries the same content;
//   - anything the server would refuse (a type change, a reference to a prompt that exists
//     neither on the server nor in the directory, references in a cycle) refuses the file.
// Writes are ordered so that a prompt referenced by another comes first.
import { buildCreatePromptBody, type CreatePromptBody } from './create-body.js';
import { dependencyOrder } from './dependency-order.js';
import { LATEST_LABEL } from './label.js';
import { type PromptFileData, sameTags, sameVersionContent } from './file-format.js';
import { parsePromptReferences, type PromptReference } from './references.js';
import type { PromptContent, PromptType } from './types.js';

/** One stored version, as far as comparing needs it. */
export interface ServerVersion {
  version: number;
  labels: readonly string[];
  content: PromptContent;
  config: unknown;
}

/** A prompt on the server: the list endpoint's summary plus the versions fetched for the plan. */
export interface ServerPromptState {
  name: string;
  type: PromptType;
  versions: readonly number[];
  /** Every label of the prompt, on whichever version. */
  labels: readonly string[];
  tags: readonly string[];
  /** The highest version; fetched for prompts that have a file. */
  latest?: ServerVersion | undefined;
  /** Versions holding a wanted label that the latest version does not hold. */
  labelled?: Readonly<Record<string, ServerVersion>> | undefined;
}

export interface LocalPromptFile {
  name: string;
  /** Where the file is, for messages. */
  path: string;
  data: PromptFileData;
}

export interface PushPlanInput {
  /** The files to push. */
  files: readonly LocalPromptFile[];
  /** Every readable file of the directory (references may point at any); default `files`. */
  directory?: readonly LocalPromptFile[] | undefined;
  /** Every prompt on the server (only those with a file need `latest`). */
  server: ReadonlyMap<string, ServerPromptState>;
  /** Labels every pushed prompt should get (--label). */
  labels?: readonly string[] | undefined;
  commitMessage?: string | undefined;
}

/** Where a label was before the plan moves it (null: on no version). */
export interface LabelMove {
  label: string;
  from: number | null;
}

interface ActionBase {
  name: string;
  path: string;
}

export type SyncAction =
  | (ActionBase & { kind: 'unchanged'; version: number; note?: string | undefined })
  | (ActionBase & { kind: 'create'; body: CreatePromptBody; labels: LabelMove[] })
  | (ActionBase & { kind: 'update'; body: CreatePromptBody; before: ServerVersion; labels: LabelMove[]; tags?: TagChange | undefined })
  | (ActionBase & { kind: 'retag'; body: CreatePromptBody; before: ServerVersion; labels: LabelMove[]; tags: TagChange })
  | (ActionBase & { kind: 'move-labels'; version: number; labels: LabelMove[] });

export interface TagChange {
  before: string[];
  after: string[];
}

export interface Refusal {
  name: string;
  path: string;
  problems: string[];
}

export interface PushPlan {
  /** One per file, writes ordered so that referenced prompts come first. */
  actions: SyncAction[];
  refused: Refusal[];
  /** Prompts on the server that have no file in the directory. */
  serverOnly: string[];
}

export function isWrite(action: SyncAction): boolean {
  return action.kind !== 'unchanged';
}

export function planPush(input: PushPlanInput): PushPlan {
  const directory = new Map((input.directory ?? input.files).map((file) => [file.name, file]));
  for (const file of input.files) directory.set(file.name, file);
  // References hold only against what the server will have when the prompt is created: the
  // server's prompts and the files pushed now, not files left out of this push.
  const pushed = new Map(input.files.map((file) => [file.name, file]));
  const extraLabels = input.labels ?? [];
  const refused: Refusal[] = [];
  const actions: SyncAction[] = [];

  for (const file of input.files) {
    const wanted = [...new Set([...file.data.labels, ...extraLabels])];
    const problems: string[] = [];
    if (wanted.includes(LATEST_LABEL)) problems.push("the label 'latest' cannot be set: the server puts it on the newest version");
    const server = input.server.get(file.name);
    if (server && server.type !== file.data.content.type) {
      problems.push(`the file is a ${file.data.content.type} prompt but '${file.name}' is a ${server.type} prompt on the server; every version of a prompt has one type (create the other type under a new name)`);
    }
    problems.push(...referenceProblems(file, pushed, directory, input.server, extraLabels));
    if (problems.length > 0) {
      refused.push({ name: file.name, path: file.path, problems });
      continue;
    }
    try {
      actions.push(planFile(file, server, wanted, input.commitMessage));
    } catch (error) {
      refused.push({ name: file.name, path: file.path, problems: [(error as Error).message] });
    }
  }

  const ordered = orderByReferences(actions, refused);
  const serverOnly = [...input.server.keys()].filter((name) => !directory.has(name)).sort();
  return { actions: ordered, refused, serverOnly };
}

function planFile(file: LocalPromptFile, server: ServerPromptState | undefined, wanted: string[], commitMessage: string | undefined): SyncAction {
  const { name, path, data } = file;
  const body = (labels: string[], tags: string[] | undefined) =>
    buildCreatePromptBody({ name, content: data.content, labels, tags, config: data.config, commitMessage });

  if (!server) {
    return { kind: 'create', name, path, body: body(wanted, data.tags), labels: wanted.map((label) => ({ label, from: null })) };
  }
  const latest = server.latest;
  if (!latest) throw new Error(`the latest version of '${name}' was not read`);

  const holder = (label: string): ServerVersion | undefined => (latest.labels.includes(label) ? latest : server.labelled?.[label]);
  const unsatisfied = wanted.filter((label) => {
    const version = holder(label);
    return !(version && sameVersionContent(version, data));
  });
  const moves = unsatisfied.map((label) => ({ label, from: server.labels.includes(label) ? (holder(label)?.version ?? null) : null }));
  const equalsLatest = sameVersionContent(latest, data);
  const tags = data.tags !== undefined && !sameTags(data.tags, server.tags) ? { before: [...server.tags], after: [...new Set(data.tags)] } : undefined;
  const needsVersion = !equalsLatest && (wanted.length === 0 || unsatisfied.length > 0);

  if (needsVersion) return { kind: 'update', name, path, body: body(unsatisfied, data.tags), before: latest, labels: moves, tags };
  if (tags) return { kind: 'retag', name, path, body: body(unsatisfied, data.tags), before: latest, labels: moves, tags };
  if (unsatisfied.length > 0) return { kind: 'move-labels', name, path, version: latest.version, labels: moves };
  const note =
    !equalsLatest && wanted.length > 0
      ? `${wanted.join(', ')} ${wanted.length === 1 ? 'points' : 'point'} at a version equal to the file; the latest version (${latest.version}) differs`
      : undefined;
  const version = equalsLatest ? latest.version : (holder(wanted[0]!)?.version ?? latest.version);
  return { kind: 'unchanged', name, path, version, note };
}

/**
 * What the server would refuse about the file's references, checked against the files pushed now
 * and the server: the referenced prompt must exist in one of them and be a text prompt, a label
 * must exist there or be set by this push, a version must exist (version 1 of a prompt this push
 * creates counts), and a prompt cannot reference itself. A file in the directory that is not
 * pushed now counts for nothing: the server checks references when the version is created.
 */
function referenceProblems(
  file: LocalPromptFile,
  pushed: ReadonlyMap<string, LocalPromptFile>,
  directory: ReadonlyMap<string, LocalPromptFile>,
  server: ReadonlyMap<string, ServerPromptState>,
  extraLabels: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const reference of parsePromptReferences(file.data.content.prompt)) {
    const tag = describeReference(reference);
    if (reference.name === file.name) {
      problems.push(`${tag}: a prompt cannot reference itself`);
      continue;
    }
    const local = pushed.get(reference.name);
    const remote = server.get(reference.name);
    if (!local && !remote) {
      const waiting = directory.get(reference.name);
      problems.push(
        waiting
          ? `${tag}: '${reference.name}' is not on the server yet and is not pushed now (${waiting.path}); push it too`
          : `${tag}: no prompt '${reference.name}' exists on the server or in the directory`,
      );
      continue;
    }
    const type = local?.data.content.type ?? remote?.type;
    if (type !== 'text') {
      problems.push(`${tag}: '${reference.name}' is a ${type} prompt; only text prompts can be referenced`);
      continue;
    }
    if (reference.type === 'label') {
      const labels = new Set([LATEST_LABEL, ...(remote?.labels ?? []), ...(local ? [...local.data.labels, ...extraLabels] : [])]);
      if (!labels.has(reference.label)) {
        problems.push(`${tag}: '${reference.name}' has no version labelled '${reference.label}' on the server, and the directory does not give it that label`);
      }
    } else {
      const versions = new Set(remote?.versions ?? (local ? [1] : []));
      if (!versions.has(reference.version)) {
        problems.push(`${tag}: '${reference.name}' has no version ${reference.version}${remote ? '' : ' (it is created by this push as version 1)'}`);
      }
    }
  }
  return problems;
}

export function describeReference(reference: PromptReference): string {
  return `@@@langfusePrompt:name=${reference.name}|${reference.type === 'label' ? `label=${reference.label}` : `version=${reference.version}`}@@@`;
}

/**
 * Writes in an order where every prompt comes after the prompts it references (ties by name);
 * prompts whose references form a cycle are refused instead.
 */
function orderByReferences(actions: SyncAction[], refused: Refusal[]): SyncAction[] {
  const byName = new Map(actions.map((action) => [action.name, action]));
  const dependsOn = new Map<string, string[]>();
  for (const action of actions) dependsOn.set(action.name, 'body' in action ? parsePromptReferences(action.body.prompt).map((reference) => reference.name) : []);
  const { order, inCycle } = dependencyOrder(byName.keys(), (name) => dependsOn.get(name) ?? []);
  const ordered = order.map((name) => byName.get(name)!);
  if (inCycle.size === 0) return ordered;
  // Anything that waits on a prompt in a cycle cannot be created either (the order has every
  // prompt outside a cycle after what it references, so one pass finds them all).
  const blocked = new Set(inCycle);
  for (const name of order) if ((dependsOn.get(name) ?? []).some((child) => blocked.has(child))) blocked.add(name);
  for (const name of [...blocked].sort()) {
    const action = byName.get(name)!;
    refused.push({
      name,
      path: action.path,
      problems: [inCycle.has(name) ? `its references form a cycle (${[...inCycle].sort().join(', ')}), which the server refuses` : 'it references a prompt whose references form a cycle'],
    });
  }
  return ordered.filter((action) => !blocked.has(action.name));
}
