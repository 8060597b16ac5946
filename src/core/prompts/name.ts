import { PromptUsageError, show } from './errors.js';

/** Exact names of the web app's static `/prompts/*` pages; `metrics/foo` is still fine. */
export const RESERVED_PROMPT_NAMES = ['new', 'metrics', 'prompt-detail'] as const;

const HTML_TAG = /<[^<>]*>/;
// C0 controls, DEL and C1 controls. Line breaks get their own message below.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Validates a prompt name by the server's rules (`PromptNameSchema`) and returns it trimmed, the
 * form the server stores.
 *
 * The server checks the slash rules on the raw name and trims afterwards, so it takes `" /a"` and
 * stores `/a`, a name it would itself refuse. We check the slash rules on the trimmed name too,
 * so a name is only accepted if it survives a round trip.
 */
export function validatePromptName(raw: string): string {
  const fail = (why: string): never => {
    throw new PromptUsageError(`Invalid prompt name ${show(raw)}: ${why}.`);
  };
  if (raw.trim().length === 0) fail('it must not be empty');
  // URLs drop a path segment "." or ".." (even written %2E%2E): such a prompt could be created
  // but never read, changed or deleted through the API.
  if (raw.trim() === '.' || raw.trim() === '..') fail('a prompt named "." or ".." cannot be addressed in a URL (URLs remove such path segments), so it could never be read or deleted');
  const control = CONTROL.exec(raw);
  if (control) {
    fail(`it must not contain control characters (found U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}): terminals act on them and the name cannot be told apart from others`);
  }
  if (HTML_TAG.test(raw)) fail('it must not contain an HTML tag');
  // `|` separates the parts of a prompt reference tag (`@@@langfusePrompt:name=..|label=..@@@`).
  if (raw.includes('|')) fail("it must not contain '|'");

  const name = raw.trim();
  for (const candidate of [raw, name]) {
    if (candidate.startsWith('/')) fail("it must not start with '/'");
    if (candidate.endsWith('/')) fail("it must not end with '/'");
    if (candidate.includes('//')) fail("it must not contain '//' (folders need a name)");
  }
  // The server's "cannot end with a slash" check is `/^.*[^/]$/`, whose `.` stops at line breaks,
  // so it refuses any name with a line break before its last character.
  if (!/^.*[^/]$/.test(raw)) fail('it must not contain line breaks');
  if ((RESERVED_PROMPT_NAMES as readonly string[]).includes(name)) {
    fail(`${RESERVED_PROMPT_NAMES.map((n) => `'${n}'`).join(', ')} are reserved`);
  }
  return name;
}

/** The name as one URL path segment: folder slashes must travel as `%2F`. */
export function promptPathSegment(name: string): string {
  return encodeURIComponent(name);
}
