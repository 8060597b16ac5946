// What `prompts copy` sends to give a destination project the versions of a source project's
// prompts, with their labels, config, tags and commit messages. Pure: both sides' states come in,
// the writes come out in order, and the executor is the only code that writes.
//
// Idempotent by content, not version numbers: a source version is matched to a destination version
// with equal type, prompt and config, and only versions without a match are created. The source's
// latest version must match the destination's latest (else it is created again, last), so the
// destination serves the same latest content. Labels that are not where they should be are moved
// with one PATCH per version. A reference to a version of another copied prompt is rewritten to the
// number that version has in the destination; references are never resolved.
import { buildCreatePromptBody, type CreatePromptBody } from './create-body.js';
import { dependencyOrder } from './dependency-order.js';
import { sameTags, sameVersionContent } from './file-format.js';
import { LATEST_LABEL } from './label.js';
import { parsePromptReferences } from './references.js';
import { describeReference, type ServerVersion } from './sync-plan.js';
import type { ChatItem, PromptContent, PromptType } from './types.js';
import { maxOf } from '../objects.js';

export interface SourceVersion extends ServerVersion {
  commitMessage: string | null;
}

export interface CopySource {
  name: string;
  type: PromptType;
  tags: readonly string[];
  /** Every version number of the prompt (for checking references). */
  allVersions: readonly number[];
  /** The versions to copy, any order; the highest of the prompt is `latestVersion`. */
  versions: readonly SourceVersion[];
  latestVersion: number;
  /** Only these labels are copied (undefined: every label of the copied versions). */
  onlyLabels?: readonly string[] | undefined;
}

export interface CopyDestination {
  name: string;
  type: PromptType;
  versions: readonly number[];
  labels: readonly string[];
  tags: readonly string[];
  /** The versions read for matching: at least the latest and the holders of the labels to copy. */
  known: readonly ServerVersion[];
}

export type CopyStep =
  | { kind: 'create'; name: string; sourceVersion: number; expectVersion: number; body: CreatePromptBody }
  | { kind: 'move-labels'; name: string; sourceVersion: number; version: number; labels: string[] };

export interface VersionMapping {
  source: number;
  destination: number;
  created: boolean;
}

export interface CopyPromptPlan {
  name: string;
  steps: CopyStep[];
  mapping: VersionMapping[];
}

export interface CopyRefusal {
  name: string;
  problems: string[];
}

export interface CopyPlan {
  /** Referenced prompts first. */
  prompts: CopyPromptPlan[];
  refused: CopyRefusal[];
}

export function planCopy(sources: readonly CopySource[], destinations: ReadonlyMap<string, CopyDestination>): CopyPlan {
  const bySource = new Map(sources.map((source) => [source.name, source]));
  const refused: CopyRefusal[] = [];
  const plans = new Map<string, CopyPromptPlan>();
  const order = copyOrder(sources, refused);

  for (const name of order) {
    const source = bySource.get(name)!;
    const destination = destinations.get(name);
    const problems: string[] = [];
    if (destination && destination.type !== source.type) {
      problems.push(`'${name}' is a ${source.type} prompt in the source but a ${destination.type} prompt in the destination`);
    }
    const translate = (content: PromptContent): PromptContent => rewriteReferences(content, name, bySource, plans, destinations, problems);
    const versions = [...source.versions].sort((a, b) => a.version - b.version).map((v) => ({ ...v, content: translate(v.content) }));
    if (refused.some((r) => r.name === name) || problems.length > 0) {
      if (problems.length > 0) refused.push({ name, problems: [...new Set(problems)] });
      continue;
    }
    try {
      plans.set(name, planOne(source, versions, destination));
    } catch (error) {
      refused.push({ name, problems: [(error as Error).message] });
    }
  }
  // Prompts that wait on a refused prompt cannot be copied either.
  const blocked = new Set(refused.map((r) => r.name));
  const prompts: CopyPromptPlan[] = [];
  for (const name of order) {
    const plan = plans.get(name);
    if (!plan) continue;
    const waitsOn = referencedNames(bySource.get(name)!).filter((child) => blocked.has(child));
    if (waitsOn.length > 0) {
      blocked.add(name);
      refused.push({ name, problems: [`it references ${waitsOn.map((n) => `'${n}'`).join(', ')}, which cannot be copied`] });
      continue;
    }
    prompts.push(plan);
  }
  return { prompts, refused };
}

function planOne(source: CopySource, versions: SourceVersion[], destination: CopyDestination | undefined): CopyPromptPlan {
  const name = source.name;
  const steps: CopyStep[] = [];
  const mapping: VersionMapping[] = [];
  const known = [...(destination?.known ?? [])].sort((a, b) => a.version - b.version);
  const destinationLatest = destination && destination.versions.length > 0 ? maxOf(destination.versions) : 0;
  let next = destinationLatest + 1;
  // Labels as they stand in the destination, updated as the plan moves them.
  const labelsOf = new Map(known.map((v) => [v.version, new Set(v.labels)]));
  const labelsToCopy = (version: SourceVersion) =>
    version.labels.filter((label) => label !== LATEST_LABEL && (source.onlyLabels === undefined || source.onlyLabels.includes(label)));
  let created = false;
  let tagsSent = false;
  let cursor = 0;

  const create = (version: SourceVersion, labels: string[]) => {
    const body = buildCreatePromptBody({
      name,
      content: version.content,
      labels,
      config: version.config,
      ...(tagsSent ? {} : { tags: [...source.tags] }),
      ...(version.commitMessage ? { commitMessage: version.commitMessage } : {}),
    });
    tagsSent = true;
    steps.push({ kind: 'create', name, sourceVersion: version.version, expectVersion: next, body });
    for (const holder of labelsOf.values()) for (const label of labels) holder.delete(label);
    labelsOf.set(next, new Set(labels));
    mapping.push({ source: version.version, destination: next, created: true });
    next++;
    created = true;
  };

  for (const version of versions) {
    const labels = labelsToCopy(version);
    const isLatest = version.version === source.latestVersion;
    let match: ServerVersion | undefined;
    if (!created) {
      if (isLatest) {
        const latest = known.find((v) => v.version === destinationLatest);
        match = latest && sameVersionContent(latest, version) ? latest : undefined;
      } else {
        // In order: a later source version never maps before an earlier one.
        const index = known.findIndex((v, i) => i >= cursor && sameVersionContent(v, version));
        if (index >= 0) {
          match = known[index];
          cursor = index + 1;
        }
      }
    }
    if (!match) {
      create(version, labels);
      continue;
    }
    mapping.push({ source: version.version, destination: match.version, created: false });
    const have = labelsOf.get(match.version) ?? new Set<string>();
    const missing = labels.filter((label) => !have.has(label));
    if (missing.length > 0) {
      steps.push({ kind: 'move-labels', name, sourceVersion: version.version, version: match.version, labels: missing });
      for (const holder of labelsOf.values()) for (const label of missing) holder.delete(label);
      labelsOf.set(match.version, new Set([...have, ...missing]));
    }
  }

  // Tags belong to the prompt and change only with a create: without one, a differing tag set is
  // sent with the latest content again (the same content, so nothing else changes).
  if (!created && destination && !sameTags(source.tags, destination.tags)) {
    const latest = versions.find((v) => v.version === source.latestVersion) ?? versions[versions.length - 1];
    if (latest) {
      const movedHere = steps.filter((s) => s.kind === 'move-labels' && s.sourceVersion === latest.version);
      for (const step of movedHere) steps.splice(steps.indexOf(step), 1);
      const mapped = mapping.findIndex((m) => m.source === latest.version);
      if (mapped >= 0) mapping.splice(mapped, 1);
      create(latest, labelsToCopy(latest));
    }
  }
  return { name, steps, mapping };
}

/**
 * Rewrites `version=N` references to copied prompts into the destination's number of that version;
 * label references stay. Records why a reference cannot hold in the destination.
 */
function rewriteReferences(
  content: PromptContent,
  name: string,
  sources: ReadonlyMap<string, CopySource>,
  plans: ReadonlyMap<string, CopyPromptPlan>,
  destinations: ReadonlyMap<string, CopyDestination>,
  problems: string[],
): PromptContent {
  const references = parsePromptReferences(content.prompt);
  if (references.length === 0) return content;
  // Destination version numbers by [name, source version]: a tag is matched by what it refers to,
  // not by its spelling (`version=02` is version 2 to the server).
  const replacements = new Map<string, number>();
  const key = (reference: { name: string; version: number }) => JSON.stringify([reference.name, reference.version]);
  for (const reference of references) {
    const tag = describeReference(reference);
    const child = sources.get(reference.name);
    const destination = destinations.get(reference.name);
    if (reference.name === name) {
      problems.push(`${tag}: a prompt cannot reference itself`);
      continue;
    }
    if (child) {
      const plan = plans.get(reference.name);
      if (reference.type === 'label') {
        const copied = child.versions.flatMap((v) => v.labels).filter((label) => child.onlyLabels === undefined || child.onlyLabels.includes(label));
        const labels = new Set([LATEST_LABEL, ...(destination?.labels ?? []), ...copied]);
        if (!labels.has(reference.label)) problems.push(`${tag}: '${reference.name}' will have no version labelled '${reference.label}' in the destination`);
        continue;
      }
      const mapped = plan?.mapping.find((m) => m.source === reference.version);
      if (!mapped) {
        problems.push(`${tag}: version ${reference.version} of '${reference.name}' is not among the versions copied (copy it with --all-versions)`);
        continue;
      }
      if (mapped.destination !== reference.version) replacements.set(key(reference), mapped.destination);
      continue;
    }
    if (!destination) {
      problems.push(`${tag}: '${reference.name}' is not copied and does not exist in the destination; copy it too`);
    } else if (reference.type === 'label' ? !new Set([LATEST_LABEL, ...destination.labels]).has(reference.label) : !destination.versions.includes(reference.version)) {
      problems.push(`${tag}: '${reference.name}' in the destination has no ${reference.type === 'label' ? `version labelled '${reference.label}'` : `version ${reference.version}`}; copy it too`);
    }
  }
  if (replacements.size === 0) return content;
  const rewrite = (text: string) =>
    text.replace(/@@@langfusePrompt:(.*?)@@@/g, (tag) => {
      const [reference] = parsePromptReferences(tag);
      const destination = reference?.type === 'version' ? replacements.get(key(reference)) : undefined;
      return reference?.type === 'version' && destination !== undefined ? describeReference({ ...reference, version: destination }) : tag;
    });
  if (content.type === 'text') return { type: 'text', prompt: rewrite(content.prompt) };
  return { type: 'chat', prompt: content.prompt.map((item): ChatItem => ('role' in item ? { role: item.role, content: rewrite(item.content) } : item)) };
}

function referencedNames(source: CopySource): string[] {
  const names = source.versions.flatMap((v) => parsePromptReferences(v.content.prompt).map((r) => r.name));
  return [...new Set(names)].filter((n) => n !== source.name);
}

/** Source prompts with referenced ones first; prompts in a reference cycle are refused. */
function copyOrder(sources: readonly CopySource[], refused: CopyRefusal[]): string[] {
  const bySource = new Map(sources.map((s) => [s.name, s]));
  const { order, inCycle } = dependencyOrder(bySource.keys(), (name) => referencedNames(bySource.get(name)!));
  for (const name of [...inCycle].sort()) refused.push({ name, problems: [`its references form a cycle (${[...inCycle].sort().join(', ')})`] });
  return order;
}
