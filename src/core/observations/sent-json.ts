// The JSON text each observation of a page came in, so that an export writes it as sent instead
// of parsing it only to write it again. Only text the server wrote compact is kept (a line of
// JSON Lines must not break), and only when the page's elements line up with its parsed items;
// anything else is written by JSON.stringify. The texts are slices of the page's text and go
// with its items.
import type { MemberElements } from '../json-depth.js';

const sent = new WeakMap<object, string>();

/** Notes the text of each of `items`, the parsed elements that `elements` found in the same text. */
export function keepSentJson(items: readonly unknown[], elements: MemberElements): void {
  const { starts, ends, compact, text } = elements;
  if (starts.length !== items.length || ends.length !== items.length) return;
  for (let k = 0; k < items.length; k++) {
    const item = items[k];
    if (compact[k] && typeof item === 'object' && item !== null) sent.set(item, text.slice(starts[k], ends[k]));
  }
}

/** The JSON text an item came in, when it was noted and is compact. */
export function sentJson(item: object): string | undefined {
  return sent.get(item);
}
