// Prompt composition as Langfuse does it (SEMANTICS.md e, "Composability"): a prompt can contain
// `@@@langfusePrompt:name=NAME|version=N@@@` or `@@@langfusePrompt:name=NAME|label=LABEL@@@`,
// which is replaced by the referenced text prompt's own resolved content.
import { PromptReferenceError } from './errors.js';

/** The server's `MAX_PROMPT_NESTING_DEPTH`: the prompt itself and four levels of references. */
export const MAX_PROMPT_NESTING_DEPTH = 5;

const REFERENCE_TAG = /@@@langfusePrompt:(.*?)@@@/g;

export type PromptReference =
  | { name: string; type: 'version'; version: number }
  | { name: string; type: 'label'; label: string };

/**
 * The references in a prompt's content, in order of first appearance, as the server parses them
 * (`parsePromptDependencyTags`). Tags are searched in `JSON.stringify(content)`, so a chat prompt
 * is searched as a whole and a name that JSON escapes (a quote, a backslash) keeps its escape.
 * A tag is kept only when `name=` comes first and it has exactly two `|`-separated parts; each part
 * is cut at `=` and only the text up to the next `=` counts. A version must be a finite number, a
 * label any string. Repeats of the same tag text count once.
 */
export function parsePromptReferences(content: unknown): PromptReference[] {
  const tags = new Set(JSON.stringify(content)?.match(REFERENCE_TAG) ?? []);
  const references: PromptReference[] = [];
  for (const tag of tags) {
    const parts = tag.slice('@@@langfusePrompt:'.length, -'@@@'.length).split('|');
    if (!parts[0]?.startsWith('name=') || parts.length !== 2) continue;
    const params = new Map<string, string | undefined>();
    for (const part of parts) {
      const [key = '', value] = part.split('=');
      params.set(key, value);
    }
    const name = params.get('name');
    if (!name) continue;
    const version = params.get('version');
    if (version) {
      const number = Number(version);
      if (Number.isFinite(number)) references.push({ name, type: 'version', version: number });
      continue;
    }
    const label = params.get('label');
    if (label !== undefined) references.push({ name, type: 'label', label });
  }
  return references;
}

/** One stored prompt version, as much of it as resolving needs. */
export interface ReferencedPrompt {
  id: string;
  name: string;
  version: number;
  type: 'text' | 'chat';
  prompt: unknown;
  labels: readonly string[];
}

export interface ReferenceSource<P extends ReferencedPrompt> {
  /** The version a reference points at now: that version number, or the one holding the label. */
  find(reference: PromptReference): P | undefined;
  /** The references stored with a version when it was created. */
  referencesOf(prompt: P): PromptReference[];
}

export interface PromptNode {
  name: string;
  version: number;
  id: string;
}

/** `resolutionGraph`: the root, and for each prompt id the versions its references resolved to. */
export interface ResolutionGraph {
  root: PromptNode;
  dependencies: Record<string, PromptNode[]>;
}

export interface ResolvedPrompt {
  /** The content with every reference replaced. */
  prompt: unknown;
  /** Null when the prompt references nothing. */
  graph: ResolutionGraph | null;
}

/**
 * Resolves a prompt's references the way the server's `buildAndResolvePromptGraph` does. The
 * root's references are `references` when given (a version being created, parsed from its
 * content), else the stored ones; nested prompts always use their stored references. Each
 * referenced version must exist and be a text prompt; nesting stops at
 * {@link MAX_PROMPT_NESTING_DEPTH}, and a cycle, or any other version of the root's own prompt,
 * is refused. A reference is replaced wherever the content names the found version by its number
 * or by any label it holds now, JSON-escaped so it stays valid inside chat messages.
 */
export function resolvePromptReferences<P extends ReferencedPrompt>(
  root: ReferencedPrompt,
  source: ReferenceSource<P>,
  references?: PromptReference[],
): ResolvedPrompt {
  const graph: ResolutionGraph = { root: { name: root.name, version: root.version, id: root.id }, dependencies: {} };
  const seen = new Set<string>();
  // The graph's entries in the order they are made, and each version resolved so far: its content,
  // how many levels it reaches below itself, and its entries. A version that several others
  // reference is resolved once; each later visit adds its entries again, as a walk through it
  // would, so the graph is the service's (which lists them on every path).
  const entries: Array<[string, PromptNode]> = [];
  const done = new Map<string, { content: unknown; below: number; entries: Array<[string, PromptNode]> }>();
  let deepest = 0;
  const add = (parent: string, node: PromptNode) => {
    (graph.dependencies[parent] ??= []).push(node);
    entries.push([parent, node]);
  };

  const resolve = (current: ReferencedPrompt, given: PromptReference[] | undefined, level: number): unknown => {
    if (level >= MAX_PROMPT_NESTING_DEPTH) {
      throw new PromptReferenceError(`Maximum nesting depth exceeded (${MAX_PROMPT_NESTING_DEPTH})`);
    }
    const before = given === undefined ? done.get(current.id) : undefined;
    if (before) {
      if (level + before.below >= MAX_PROMPT_NESTING_DEPTH) throw new PromptReferenceError(`Maximum nesting depth exceeded (${MAX_PROMPT_NESTING_DEPTH})`);
      deepest = Math.max(deepest, level + before.below);
      for (const [parent, node] of before.entries) add(parent, node);
      return before.content;
    }
    if (seen.has(current.id) || (current.name === root.name && current.id !== root.id)) {
      throw new PromptReferenceError(`Circular dependency detected involving prompt '${current.name}' version ${current.version}`);
    }
    seen.add(current.id);
    const from = entries.length;
    const deepestAbove = deepest;
    deepest = level;
    const content = resolveReferences(current, given ?? source.referencesOf(current as P), level);
    done.set(current.id, { content, below: deepest - level, entries: entries.slice(from) });
    deepest = Math.max(deepest, deepestAbove);
    seen.delete(current.id);
    return content;
  };

  const resolveReferences = (current: ReferencedPrompt, own: PromptReference[], level: number): unknown => {
    if (own.length === 0) return current.prompt;
    let text = JSON.stringify(current.prompt);
    for (const reference of own) {
      const child = source.find(reference);
      const described = `${reference.name} - ${reference.type} ${reference.type === 'version' ? reference.version : reference.label}`;
      if (!child) throw new PromptReferenceError(`Prompt dependency not found: ${described}`);
      if (child.type !== 'text') throw new PromptReferenceError(`Prompt dependency is not a text prompt: ${described}`);
      add(current.id, { id: child.id, name: child.name, version: child.version });

      const resolved = resolve(child, undefined, level + 1);
      const tagOf = (selector: string) => `@@@langfusePrompt:name=${escapeRegex(child.name)}\\|${selector}@@@`;
      const pattern = new RegExp([tagOf(`version=${escapeRegex(child.version)}`), ...child.labels.map((label) => tagOf(`label=${escapeRegex(label)}`))].join('|'), 'g');
      const replacement = JSON.stringify(resolved).slice(1, -1);
      text = text.replace(pattern, () => replacement);
    }
    return JSON.parse(text);
  };

  const prompt = resolve(root, references, 0);
  return { prompt, graph: Object.keys(graph.dependencies).length > 0 ? graph : null };
}

/**
 * The referenced versions in the order they were resolved, each with the prompt that referenced
 * it, each parent and child pair once (a version reached along two paths is listed per parent,
 * and its own references once).
 */
export function referencedVersions(graph: ResolutionGraph): Array<PromptNode & { from: PromptNode }> {
  const nodes = new Map<string, PromptNode>([[graph.root.id, graph.root]]);
  for (const children of Object.values(graph.dependencies)) for (const child of children) nodes.set(child.id, child);
  const listed: Array<PromptNode & { from: PromptNode }> = [];
  const pairs = new Set<string>();
  const walked = new Set<string>();
  const walk = (parent: PromptNode, depth: number) => {
    // The graph comes from a server; a malformed one must not loop forever.
    if (depth > MAX_PROMPT_NESTING_DEPTH || walked.has(parent.id)) return;
    walked.add(parent.id);
    for (const child of graph.dependencies[parent.id] ?? []) {
      const pair = JSON.stringify([parent.id, child.id]);
      if (pairs.has(pair)) continue;
      pairs.add(pair);
      listed.push({ ...child, from: parent });
      walk(nodes.get(child.id) ?? child, depth + 1);
    }
  };
  walk(graph.root, 1);
  return listed;
}

/** The versions the content was resolved with: `middle v4, leaf v1 (in middle v4)`. */
export function describeReferencedVersions(graph: ResolutionGraph): string {
  return referencedVersions(graph)
    .map((node) => `${node.name} v${node.version}${node.from.id === graph.root.id ? '' : ` (in ${node.from.name} v${node.from.version})`}`)
    .join(', ');
}

function escapeRegex(value: string | number): string {
  return String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
