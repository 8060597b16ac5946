import mustache from 'mustache';
import { PromptTemplateError } from './errors.js';

/**
 * Fixed delimiters, passed on every call so a change to the global `mustache.tags` by other code
 * in the process cannot change how prompts are read.
 */
export const MUSTACHE_TAGS: readonly [string, string] = ['{{', '}}'];

/** A node of mustache's parse tree: `[type, value, start, end, children?, ...]`. */
export type TemplateToken = mustache.TemplateSpans[number];

/**
 * A private writer per use: its template cache then dies with it instead of growing in the shared
 * default writer for the life of the process.
 */
export function newWriter(): mustache.Writer {
  return new mustache.Writer();
}

/** Parses a template with mustache's own parser, turning its syntax errors into typed errors. */
export function parseTemplate(
  template: string,
  writer: mustache.Writer = newWriter(),
  where = 'The template',
): TemplateToken[] {
  try {
    return writer.parse(template, [...MUSTACHE_TAGS]) as TemplateToken[];
  } catch (error) {
    throw new PromptTemplateError(`${where} is not valid mustache: ${(error as Error).message}.`);
  }
}

/** Tokens whose value is a name looked up in the variables. */
export function isLookupToken(token: TemplateToken): boolean {
  const type = token[0];
  return type === 'name' || type === '&' || type === '#' || type === '^';
}

/** The children of a section or inverted section token, else none. */
export function childrenOf(token: TemplateToken): TemplateToken[] {
  const children = token[4];
  return Array.isArray(children) ? (children as TemplateToken[]) : [];
}

/**
 * The top-level variable names a template refers to anywhere (sections, dotted names' first
 * segment, names inside sections), in first-use order. `{{.}}` names no variable.
 */
export function referencedVariables(template: string): string[] {
  return namesIn(parseTemplate(template));
}

/** `referencedVariables` for an already parsed template. */
export function namesIn(tokens: TemplateToken[]): string[] {
  const names = new Set<string>();
  const visit = (nodes: TemplateToken[]) => {
    for (const token of nodes) {
      if (isLookupToken(token) && token[1] !== '.') names.add(token[1].split('.')[0] ?? token[1]);
      visit(childrenOf(token));
    }
  };
  visit(tokens);
  return [...names];
}
