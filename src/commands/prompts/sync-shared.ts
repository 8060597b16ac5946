// What `prompts status` and `prompts push` share: reading the directory, checking every file
// before anything is sent, reading the server's state, planning, and describing the plan.
import { z } from 'zod';
import type { ApiClient } from '../../api/client.js';
import { promptIndex, readSyncState } from '../../api/prompts.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { validateCommitMessage } from '../../core/prompts/commit-message.js';
import { diffPrompts } from '../../core/prompts/diff.js';
import { validateLabel } from '../../core/prompts/label.js';
import { type LabelMove, type LocalPromptFile, planPush, type PushPlan, type SyncAction } from '../../core/prompts/sync-plan.js';
import { directoryExists, type FileProblem, readPromptDirectory } from '../../io/prompt-dir.js';

export const DEFAULT_PROMPT_DIR = 'prompts';

export const SyncOptions = z.object({
  names: z.array(z.string()).default([]),
  dir: z.string().min(1, 'must not be empty').default(DEFAULT_PROMPT_DIR),
  label: z.array(z.string()).default([]),
});

export interface PlanRequest {
  names: readonly string[];
  dir: string;
  labels: readonly string[];
  message?: string | undefined;
}

export interface PreparedPlan {
  plan: PushPlan;
  client: ApiClient;
  /** Files that could not be read; together with the plan's refusals they stop a push. */
  fileProblems: FileProblem[];
}

/** Checks flags and every file, then reads the server and plans. Nothing is written. */
export async function preparePlan(ctx: Context, request: PlanRequest): Promise<PreparedPlan> {
  const problems: string[] = [];
  for (const label of request.labels) {
    try {
      validateLabel(label);
    } catch (error) {
      problems.push(`--label: ${(error as Error).message}`);
    }
  }
  if (request.message !== undefined) validateCommitMessage(request.message);
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  if (!(await directoryExists(request.dir, ctx.cwd))) {
    throw new UsageError(`the directory ${request.dir} does not exist`, { hint: `Pull the prompts into it first: llmobs prompts pull --dir ${request.dir}` });
  }

  const directory = await readPromptDirectory(request.dir, ctx.cwd);
  const selected = selectFiles(directory.files, directory.pathsByName, request.names, request.dir);
  const unselectedProblems = request.names.length === 0 ? [] : directory.problems.filter((problem) => !request.names.includes(problem.name ?? ''));
  const blocking = directory.problems.filter((problem) => !unselectedProblems.includes(problem));
  for (const problem of unselectedProblems) ctx.out.warn(`${problem.path} is skipped: ${problem.problems.join('; ')}`);

  const client = await ctx.api();
  const progress = ctx.out.progress();
  const wants = selected.map((file) => ({ name: file.name, type: file.data.content.type, labels: [...new Set([...file.data.labels, ...request.labels])] }));
  let server;
  try {
    const index = await promptIndex(client);
    server = await readSyncState(client, index, wants, (done, total) => progress.update(() => `Reading prompts from the server: ${done}/${total}`));
  } catch (error) {
    // The files' own problems are reported even when the server cannot be read.
    if (blocking.length > 0) throw fileProblemsError(blocking);
    throw error;
  } finally {
    progress.clear();
  }
  const plan = planPush({ files: selected, directory: directory.files, server, labels: request.labels, commitMessage: request.message });
  if (request.names.length > 0) plan.serverOnly = [];
  // A file that cannot be read has no plan entry; its prompt is not "only on the server".
  plan.serverOnly = plan.serverOnly.filter((name) => !directory.pathsByName.has(name));
  return { plan, client, fileProblems: blocking };
}

function selectFiles(files: LocalPromptFile[], paths: Map<string, string[]>, names: readonly string[], dir: string): LocalPromptFile[] {
  if (names.length === 0) return files;
  const missing = names.filter((name) => !paths.has(name));
  if (missing.length > 0) {
    throw new UsageError(`no file in ${dir} for ${missing.map((name) => `'${name}'`).join(', ')}`, {
      hint: `A prompt's file is ${dir}/<name>.md (text) or ${dir}/<name>.yaml (chat).`,
    });
  }
  return files.filter((file) => names.includes(file.name));
}

/** Every file problem in one error (exit 2): nothing is sent while any file is broken. */
export function fileProblemsError(problems: readonly FileProblem[]): UsageError {
  const lines = problems.flatMap((problem) => problem.problems.map((text) => `  ${problem.path}: ${text}`));
  return new UsageError(`${problems.length === 1 ? '1 prompt file has' : `${problems.length} prompt files have`} problems; nothing was sent:\n${lines.join('\n')}`, {
    hint: 'Fix the files and run the command again. The file format is described in docs/prompts-in-git.md.',
    details: problems.map((problem) => ({ path: problem.path, name: problem.name, problems: problem.problems })),
  });
}

/** Unreadable files and refused plans together: every problem in one error. */
export function problemsOf(prepared: PreparedPlan): FileProblem[] {
  return [...prepared.fileProblems, ...prepared.plan.refused.map((refusal) => ({ path: refusal.path, name: refusal.name, problems: refusal.problems }))];
}

// ---- describing a plan -------------------------------------------------------------------------

export type SyncStatus = 'unchanged' | 'new' | 'changed' | 'labels' | 'tags';

export function statusOf(action: SyncAction): SyncStatus {
  switch (action.kind) {
    case 'unchanged':
      return 'unchanged';
    case 'create':
      return 'new';
    case 'update':
      return 'changed';
    case 'move-labels':
      return 'labels';
    case 'retag':
      return 'tags';
  }
}

function moves(labels: readonly LabelMove[], to: string): string {
  return labels.map((move) => `${move.label} ${move.from === null ? '' : `v${move.from} `}→ ${to}`).join(', ');
}

/** One line of what a plan entry does, e.g. "new version after v4; staging v3 → new". */
export function describeAction(action: SyncAction): string {
  switch (action.kind) {
    case 'unchanged':
      return `v${action.version}${action.note ? ` (${action.note})` : ''}`;
    case 'create':
      return `new prompt${action.labels.length ? `; ${moves(action.labels, 'v1')}` : ''}`;
    case 'update': {
      const parts = [`new version after v${action.before.version}`];
      if (action.labels.length) parts.push(moves(action.labels, 'new'));
      if (action.tags) parts.push(`tags ${tagList(action.tags.before)} → ${tagList(action.tags.after)}`);
      return parts.join('; ');
    }
    case 'retag':
      return [`new version with the same content (tags ${tagList(action.tags.before)} → ${tagList(action.tags.after)}; the API sets tags only on create)`, action.labels.length ? moves(action.labels, 'new') : '']
        .filter(Boolean)
        .join('; ');
    case 'move-labels':
      return moves(action.labels, `v${action.version}`);
  }
}

function tagList(tags: readonly string[]): string {
  return tags.length === 0 ? '(none)' : tags.join(', ');
}

/** The unified diff of a changed prompt against the server's latest version ('' when none). */
export function diffOf(action: SyncAction): { content: string; config: string } {
  if (action.kind !== 'update') return { content: '', config: '' };
  const before = action.before;
  const diff = diffPrompts(
    { name: action.name, version: before.version, labels: before.labels, prompt: before.content.prompt, config: before.config },
    { name: action.path, prompt: action.body.prompt, config: action.body.config },
  );
  return diff;
}

export function actionJson(action: SyncAction): Record<string, unknown> {
  const out: Record<string, unknown> = { name: action.name, path: action.path, status: statusOf(action) };
  if (action.kind === 'unchanged') {
    out.version = action.version;
    if (action.note) out.note = action.note;
  }
  if (action.kind === 'update' || action.kind === 'retag') out.latestVersion = action.before.version;
  if (action.kind === 'move-labels') out.version = action.version;
  if (action.kind !== 'unchanged') out.labels = action.labels;
  if ((action.kind === 'update' || action.kind === 'retag') && action.tags) out.tags = action.tags;
  if (action.kind === 'update') out.diff = diffOf(action);
  return out;
}
