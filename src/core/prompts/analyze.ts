import type { Placeholders, Variables } from './compile.js';
import { fillPlaceholder } from './placeholder-value.js';
import { childrenOf, isLookupToken, namesIn, newWriter, parseTemplate, type TemplateToken } from './template.js';
import { isPlaceholder, type PromptContent } from './types.js';

/** What `--strict` complains about; every list is empty for a clean compile. */
export interface CompileAnalysis {
  /** Names the render looked up and did not find: a missing root of `a.b` is reported as `a`. */
  missingVariables: string[];
  /** Variables given that no template refers to. */
  unusedVariables: string[];
  /** Placeholders in the prompt that were not filled, so they stay in the output. */
  missingPlaceholders: string[];
  /** Placeholders given that the prompt does not have. */
  unknownPlaceholders: string[];
  /** Placeholders given a value that is not a list of messages, so it goes in as JSON text. */
  invalidPlaceholders: string[];
  /** Partials (`{{> name}}`); compile gets none, so each renders as nothing. */
  partials: string[];
}

export function hasCompileProblems(analysis: CompileAnalysis): boolean {
  return Object.values(analysis).some((list: string[]) => list.length > 0);
}

/**
 * Checks a compile for names that do not line up, by walking mustache's parse tree the way the
 * renderer does: sections push their value as a context, so `{{#user}}{{name}}{{/user}}` finds
 * `name` on `user`. Unlike the renderer, a name found only on `Object.prototype` counts as missing.
 */
export function analyzeCompile(
  content: PromptContent,
  variables: Variables = {},
  placeholders: Placeholders = {},
): CompileAnalysis {
  const templates: string[] = [];
  const missingPlaceholders: string[] = [];
  const invalidPlaceholders: string[] = [];
  const inPrompt = new Set<string>();

  if (content.type === 'text') {
    templates.push(content.prompt);
  } else {
    for (const item of content.prompt) {
      if (!isPlaceholder(item)) {
        templates.push(item.content);
        continue;
      }
      inPrompt.add(item.name);
      const fill = fillPlaceholder(placeholders, item.name);
      if (fill.kind === 'unfilled') missingPlaceholders.push(item.name);
      else if (fill.kind === 'json') invalidPlaceholders.push(item.name);
      else if (fill.kind === 'messages') {
        for (const message of fill.messages) if (typeof message.content === 'string') templates.push(message.content);
      }
    }
  }

  const missing = new Set<string>();
  const partials = new Set<string>();
  const referenced = new Set<string>();
  const writer = newWriter();
  for (const template of templates) {
    const tokens = parseTemplate(template, writer);
    walk(tokens, [variables], missing, partials);
    for (const name of namesIn(tokens)) referenced.add(name);
  }

  return {
    missingVariables: [...missing],
    unusedVariables: Object.keys(variables).filter((name) => !referenced.has(name)),
    missingPlaceholders: unique(missingPlaceholders),
    unknownPlaceholders: Object.keys(placeholders).filter((name) => !inPrompt.has(name)),
    invalidPlaceholders: unique(invalidPlaceholders),
    partials: [...partials],
  };
}

function walk(tokens: TemplateToken[], stack: unknown[], missing: Set<string>, partials: Set<string>): void {
  for (const token of tokens) {
    const [type, name] = token;
    if (type === '>') partials.add(name);
    if (!isLookupToken(token)) continue;

    const found = lookup(name, stack);
    if (!found.hit) missing.add(missingName(name, stack));
    const value = found.value;
    const children = childrenOf(token);
    if (type === '#') {
      // A missing section is walked as if it were shown, so one run reports what is inside too.
      if (!found.hit) walk(children, stack, missing, partials);
      else if (Array.isArray(value)) for (const element of value) walk(children, [...stack, element], missing, partials);
      else if (value && (typeof value === 'object' || typeof value === 'string' || typeof value === 'number')) {
        walk(children, [...stack, value], missing, partials);
      } else if (value) walk(children, stack, missing, partials);
    } else if (type === '^' && (!value || (Array.isArray(value) && value.length === 0))) {
      walk(children, stack, missing, partials);
    }
  }
}

/** Mustache's `Context.lookup`, innermost context first, with own properties only. */
function lookup(name: string, stack: unknown[]): { hit: boolean; value?: unknown } {
  if (name === '.') return { hit: true, value: stack.at(-1) };
  for (let depth = stack.length - 1; depth >= 0; depth--) {
    const view = stack[depth];
    if (name.indexOf('.') > 0) {
      let value: unknown = view;
      let hit = false;
      const segments = name.split('.');
      for (let i = 0; value !== null && value !== undefined && i < segments.length; i++) {
        const segment = segments[i] as string;
        const own = Object.hasOwn(value as object, segment);
        if (i === segments.length - 1) hit = own;
        value = own ? (value as Record<string, unknown>)[segment] : undefined;
      }
      if (hit) return { hit, value };
    } else if (typeof view === 'object' && view !== null && Object.hasOwn(view, name)) {
      return { hit: true, value: (view as Record<string, unknown>)[name] };
    }
  }
  return { hit: false };
}

function missingName(name: string, stack: unknown[]): string {
  const root = name.split('.')[0] ?? name;
  return root !== name && !lookup(root, stack).hit ? root : name;
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/** One line per kind of problem in an analysis, naming what it concerns; none for a clean compile. */
export function describeCompileProblems(analysis: CompileAnalysis): string[] {
  const lines: string[] = [];
  const add = (names: string[], text: string) => {
    if (names.length) lines.push(`${text}: ${names.join(', ')}`);
  };
  add(analysis.missingVariables, 'variables not given (they render as nothing)');
  add(analysis.unusedVariables, 'variables given but not used');
  add(analysis.missingPlaceholders, 'placeholders not given (they stay in the output)');
  add(analysis.unknownPlaceholders, 'placeholders given that the prompt does not have');
  add(analysis.invalidPlaceholders, 'placeholders given something other than a list of messages (inserted as JSON text)');
  add(analysis.partials, 'partials, which compile does not support (they render as nothing)');
  return lines;
}

/** What compile will ask for; a template mustache cannot read shows none rather than failing. */
export function templateNames(content: PromptContent): { variables: string[]; placeholders: string[] } {
  try {
    const analysis = analyzeCompile(content);
    return { variables: analysis.missingVariables, placeholders: analysis.missingPlaceholders };
  } catch {
    return { variables: [], placeholders: [] };
  }
}
