/**
 * Nesting limits for JSON that llmobs reads. Parsing itself copes with any depth, but what
 * follows (stringifying, walking chat messages, printing) recurses, and a few hundred thousand
 * brackets would end in a stack overflow; a clear refusal is better. No real generation input,
 * usage or definition comes near this depth.
 */
export const MAX_JSON_DEPTH = 512;

export class JsonTooDeepError extends Error {
  constructor(readonly what: string) {
    super(`${what} is nested more than ${MAX_JSON_DEPTH} levels deep (objects and arrays inside each other); llmobs reads at most ${MAX_JSON_DEPTH}`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * Where the elements of one member of a top-level object lie in JSON text (an array of objects:
 * a page's `data`), as `jsonTextDepth` finds them on its way. `text.slice(starts[k], ends[k])` is
 * element k as written; `compact[k]` is false when white space stands between its tokens. An
 * element that is not an object or array is not listed, nor is any after an unclosed string; a
 * member given twice counts as JSON.parse counts it, the last one.
 */
export class MemberElements {
  text = '';
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly compact: boolean[] = [];
  constructor(readonly key: string) {}
}

/**
 * The deepest nesting of `[` and `{` in JSON text (brackets inside strings do not count). A
 * string is skipped to its closing quote with indexOf: answers are mostly long strings. With
 * `elements`, also notes where that member's elements are.
 */
export function jsonTextDepth(text: string, stopAbove = Infinity, elements?: MemberElements): number {
  let depth = 0;
  let max = 0;
  // The member whose elements are noted: its quoted name, the last string and token seen at depth 1.
  const name = elements ? JSON.stringify(elements.key) : '';
  let keyAt = -1;
  let colon = false;
  let inMember = false;
  let compact = true;
  if (elements) elements.text = text;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      // The closing quote: the next one not escaped (after an even run of backslashes).
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return max;
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      if (depth === 1) {
        keyAt = start;
        colon = false;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (elements) {
        if (depth === 1) {
          inMember = c === 0x5b && colon && text.startsWith(name, keyAt);
          if (inMember) {
            elements.starts.length = elements.ends.length = elements.compact.length = 0;
          }
        } else if (depth === 2 && inMember) {
          elements.starts.push(i);
          compact = true;
        }
      }
      if (++depth > max) {
        max = depth;
        if (max > stopAbove) return max;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (inMember && depth === 2) {
        elements!.ends.push(i + 1);
        elements!.compact.push(compact);
      } else if (depth === 1) inMember = false;
    } else if (elements) {
      if (depth === 1) colon = c === 0x3a || (colon && c <= 0x20);
      else if (c <= 0x20 && depth > 2) compact = false;
    }
  }
  return max;
}

/** The nesting depth of a value, walked without recursion; stops once past `stopAbove`. */
export function valueDepth(value: unknown, stopAbove = Infinity): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    const depth = d + 1;
    if (depth > max) {
      max = depth;
      if (max > stopAbove) return max;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth]);
    }
  }
  return max;
}

/**
 * Throws JsonTooDeepError when a value nests deeper than the limit, or a string does that is
 * JSON (text that merely holds many brackets is text, and is counted as text).
 */
export function assertJsonDepth(value: unknown, what: string): void {
  if (typeof value === 'string') {
    if (jsonTextDepth(value, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH) return;
    try {
      JSON.parse(value);
    } catch {
      return;
    }
    throw new JsonTooDeepError(what);
  }
  if (valueDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new JsonTooDeepError(what);
}
