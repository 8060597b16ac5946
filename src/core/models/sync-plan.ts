// What `models push` sends to make the project's own model definitions match a file, and what
// `models status` shows. Pure: the file's checked definitions and the server's come in, a plan
// comes out; the executor is the only code that writes.
//
// A file entry is matched to a server definition by `id` when it has one, else by `modelName`.
// Unmatched entries are created, matched ones that differ are replaced (PUT, or delete + create on
// servers without it), equal ones are left alone, and with `prune` the project's definitions the
// file does not match are deleted. Anything ambiguous refuses the whole plan.
import type { CreateModelBody } from './request.js';

export interface FileModel {
  /** 0-based position in the file, for messages. */
  index: number;
  id?: string | undefined;
  body: CreateModelBody;
}

export interface ServerModel {
  id: string;
  modelName: string;
  isLangfuseManaged: boolean;
  /** The definition as a create body; undefined when it cannot be written back (it then differs). */
  body: CreateModelBody | undefined;
}

export type ModelAction =
  | { kind: 'unchanged'; index: number; id: string; modelName: string }
  | { kind: 'create'; index: number; id?: string | undefined; body: CreateModelBody }
  | { kind: 'replace'; index: number; id: string; before: CreateModelBody | undefined; body: CreateModelBody }
  | { kind: 'delete'; id: string; modelName: string };

export interface ModelPlan {
  /** In the order to send: deletes that free a name first, then creates and replaces, then the other deletes. */
  actions: ModelAction[];
  problems: string[];
  /** Definitions prune leaves alone: llmobs cannot write them to a file, so a file never has them. */
  notPruned: ServerModel[];
}

export function planModelSync(file: readonly FileModel[], server: readonly ServerModel[], options: { prune: boolean }): ModelPlan {
  const problems: string[] = [];
  const own = server.filter((model) => !model.isLangfuseManaged);
  const byId = new Map(server.map((model) => [model.id, model]));
  const matched = new Map<string, number>();
  const entries: ModelAction[] = [];
  const names = new Map<string, number>();

  for (const entry of file) {
    const at = `definition ${entry.index + 1} ("${entry.body.modelName}")`;
    const earlier = names.get(entry.body.modelName);
    if (earlier !== undefined) problems.push(`${at}: the model name is also used by definition ${earlier + 1}; names are unique within a project`);
    names.set(entry.body.modelName, entry.index);

    let match: ServerModel | undefined;
    if (entry.id !== undefined) {
      match = byId.get(entry.id);
      if (match?.isLangfuseManaged) {
        problems.push(`${at}: ${entry.id} is a built-in definition, which cannot be changed; leave out its id to create a custom definition that overrides it`);
        continue;
      }
    } else {
      match = own.find((model) => model.modelName === entry.body.modelName);
    }
    if (match) {
      const other = matched.get(match.id);
      if (other !== undefined) {
        problems.push(`${at}: matches the same definition (${match.id}) as definition ${other + 1}`);
        continue;
      }
      matched.set(match.id, entry.index);
      entries.push(
        match.body !== undefined && sameModelBody(match.body, entry.body)
          ? { kind: 'unchanged', index: entry.index, id: match.id, modelName: match.modelName }
          : { kind: 'replace', index: entry.index, id: match.id, before: match.body, body: entry.body },
      );
    } else {
      entries.push({ kind: 'create', index: entry.index, id: entry.id, body: entry.body });
    }
  }

  const unmatched = own.filter((model) => !matched.has(model.id));
  // A name the file gives to another definition is taken until its current holder is gone.
  const taken = new Set(entries.filter((a) => a.kind === 'create' || a.kind === 'replace').map((a) => (a as { body: CreateModelBody }).body.modelName));
  const first: ModelAction[] = [];
  const last: ModelAction[] = [];
  const notPruned: ServerModel[] = [];
  for (const model of unmatched) {
    if (model.body === undefined && !taken.has(model.modelName)) {
      if (options.prune) notPruned.push(model);
      continue;
    }
    if (taken.has(model.modelName)) {
      if (!options.prune) problems.push(`"${model.modelName}" (${model.id}) on the server has the name the file gives another definition; delete it with --prune, or give the file's definition its id`);
      else first.push({ kind: 'delete', id: model.id, modelName: model.modelName });
    } else if (options.prune) {
      last.push({ kind: 'delete', id: model.id, modelName: model.modelName });
    }
  }
  return { actions: [...first, ...entries, ...last], problems, notPruned };
}

/** Same definition? Key order and the spelling of the start date do not matter. */
export function sameModelBody(a: CreateModelBody, b: CreateModelBody): boolean {
  const normal = (body: CreateModelBody) => canonical({ ...body, startDate: body.startDate ? new Date(body.startDate).toISOString() : undefined });
  return JSON.stringify(normal(a)) === JSON.stringify(normal(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => [key, canonical(record[key])]),
    );
  }
  return value;
}
