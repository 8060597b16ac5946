// The UI's list cursors: JSON in base64url, opaque to the page that hands them back.
import { Buffer } from 'node:buffer';

export function encodeCursor(cursor: object): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/**
 * undefined: no cursor (the first page); null: one that is not ours. `accept` gives the cursor
 * from its decoded fields, or undefined when they are not what the list writes.
 */
export function decodeCursor<C>(text: string | null, accept: (fields: Record<string, unknown>) => C | undefined): C | undefined | null {
  if (!text) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null) return accept(value as Record<string, unknown>) ?? null;
  } catch {
    // falls through to null
  }
  return null;
}
