/** A message spliced in from a placeholder value: kept with all its fields, as the SDK does. */
export interface SplicedMessage {
  role: unknown;
  content: unknown;
  [key: string]: unknown;
}

/** What compile does with the value given for one placeholder. */
export type PlaceholderFill =
  | { kind: 'unfilled' }
  | { kind: 'messages'; messages: SplicedMessage[] }
  | { kind: 'dropped' }
  | { kind: 'json'; text: string };

/**
 * The SDK's rule: a non-empty list of messages is spliced in, an empty list drops the placeholder,
 * any other defined value goes in as JSON text, and no value leaves the placeholder in place.
 *
 * Own properties only: the SDK's plain `placeholders[name]` finds `Object.prototype` members, so
 * there a placeholder named `constructor` turns into `undefined`.
 */
export function fillPlaceholder(placeholders: Record<string, unknown> | undefined, name: string): PlaceholderFill {
  const value = placeholders !== undefined && Object.hasOwn(placeholders, name) ? placeholders[name] : undefined;
  if (value === undefined) return { kind: 'unfilled' };
  if (isMessageList(value)) return { kind: 'messages', messages: value };
  if (Array.isArray(value) && value.length === 0) return { kind: 'dropped' };
  return { kind: 'json', text: JSON.stringify(value) };
}

/**
 * The SDK's test for a fillable value: a non-empty array of objects that have `role` and
 * `content`. The SDK throws a TypeError on a `null` element; here it simply fails the test.
 */
export function isMessageList(value: unknown): value is SplicedMessage[] {
  return Array.isArray(value) && value.length > 0 && value.every(isMessageLike);
}

export function isMessageLike(value: unknown): value is SplicedMessage {
  return typeof value === 'object' && value !== null && 'role' in value && 'content' in value;
}
