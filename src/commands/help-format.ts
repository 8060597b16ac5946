// The text of a command's help, as commander's Help.formatHelp writes it, in fewer steps.
// Commander's formatter styles and measures each term and each word of each description through
// a chain of overridable methods (a colour-stripping regex per word): most of the time of a
// `--help`, all of it code run once per process. This one writes the same text for what llmobs
// uses of commander's help (no styles, no help groups, no global options section) and leaves
// anything else to commander. A test compares the two for every command of the tree at many widths.
import { type Command, Help } from 'commander';

type Item = readonly [term: string, description: string];

export function formatHelp(command: Command, helper: Help): string {
  const commanders = () => Help.prototype.formatHelp.call(helper, command, helper);
  if (!plain(helper)) return commanders();
  const options = helper.visibleOptions(command);
  const commands = helper.visibleCommands(command);
  // Help groups make sections of their own.
  if (options.some((option) => option.helpGroupHeading !== undefined) || commands.some((sub) => sub.helpGroup() !== '')) return commanders();
  const sections: Array<[heading: string, items: Item[]]> = [
    ['Arguments:', helper.visibleArguments(command).map((argument) => [helper.argumentTerm(argument), helper.argumentDescription(argument)])],
    ['Options:', options.map((option) => [helper.optionTerm(option), helper.optionDescription(option)])],
    ['Commands:', commands.map((sub) => [helper.subcommandTerm(sub), helper.subcommandDescription(sub)])],
  ];
  // (Indexed loops, here and below: destructuring runs an iterator per item, in code run once.)
  let termWidth = 0;
  for (let s = 0; s < sections.length; s++) {
    const items = sections[s]![1];
    for (let i = 0; i < items.length; i++) {
      const term = items[i]![0];
      // Colour codes take no columns: commander strips them to measure; left to it.
      if (term.includes('\x1b') || items[i]![1].includes('\x1b')) return commanders();
      termWidth = Math.max(termWidth, term.length);
    }
  }
  const width = helper.helpWidth ?? 80;
  const lines = [`Usage: ${helper.commandUsage(command)}`, ''];
  const description = helper.commandDescription(command);
  if (description.includes('\x1b')) return commanders();
  if (description.length > 0) lines.push(boxWrap(description, width, helper.minWidthToWrap), '');
  // The term, padded; the description wrapped beside it, its lines indented to the term's width.
  const remaining = width - termWidth - 4;
  const hanging = `\n${' '.repeat(termWidth + 2)}`;
  for (let s = 0; s < sections.length; s++) {
    const items = sections[s]![1];
    if (items.length === 0) continue;
    lines.push(sections[s]![0]);
    for (let i = 0; i < items.length; i++) {
      const term = items[i]![0];
      const text = items[i]![1];
      if (!text) {
        lines.push(`  ${term}`);
        continue;
      }
      const body = remaining < helper.minWidthToWrap || preformatted(text) ? text : boxWrap(text, remaining, helper.minWidthToWrap).replaceAll('\n', hanging);
      lines.push(`  ${term.padEnd(termWidth)}  ${body.replaceAll('\n', '\n  ')}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Whether commander's formatter would only lay out text: no style or section this one does not write. */
function plain(helper: Help): boolean {
  if (helper.showGlobalOptions) return false;
  // Commander's own helper (a Help with the configured methods as its own properties): its own
  // names are looked at, a few, instead of each replaced method looked up through its prototype
  // (a lookup that misses its cache each time, in code run once).
  if (Object.getPrototypeOf(helper) === Help.prototype) {
    const names = Object.getOwnPropertyNames(helper);
    for (let i = 0; i < names.length; i++) if (REPLACED_NAMES.has(names[i]!)) return false;
    return true;
  }
  const own = helper as unknown as Record<string, unknown>;
  const stock = Help.prototype as unknown as Record<string, unknown>;
  return REPLACED.every((name) => own[name] === stock[name]);
}

/** Help's methods whose work this formatter does itself: when one is overridden, commander's formatter runs. */
const REPLACED = [
  'displayWidth',
  'boxWrap',
  'preformatted',
  'formatItem',
  'formatItemList',
  'groupItems',
  'padWidth',
  'longestOptionTermLength',
  'longestSubcommandTermLength',
  'longestArgumentTermLength',
  'longestGlobalOptionTermLength',
  'styleTitle',
  'styleUsage',
  'styleCommandDescription',
  'styleOptionDescription',
  'styleSubcommandDescription',
  'styleArgumentDescription',
  'styleDescriptionText',
  'styleOptionTerm',
  'styleSubcommandTerm',
  'styleArgumentTerm',
  'styleOptionText',
  'styleArgumentText',
  'styleSubcommandText',
  'styleCommandText',
] as const;
const REPLACED_NAMES: ReadonlySet<string> = new Set(REPLACED);

/**
 * Help.boxWrap for text without colour codes: words (with the white space before them) fill lines
 * up to `width`. Written out, as the rest of this file, without the regexes commander uses: each
 * one's first uses compile it, in every help.
 */
function boxWrap(text: string, width: number, minWidth: number): string {
  if (width < minWidth) return text;
  const out: string[] = [];
  const spaced = spacesOnly(text);
  // Lines as split(/\r\n|\n/) makes them, but for the \r before a \n: white space at the end of
  // a line, which the chunks leave out anyway.
  for (let lineStart = 0; ; ) {
    const lineEnd = text.indexOf('\n', lineStart);
    layOutLine(text, lineStart, lineEnd === -1 ? text.length : lineEnd, width, out, spaced);
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return out.join('\n');
}

/**
 * Whether the only white space of a text is the space and the line feed, as in llmobs's own
 * texts: its words are then found by the string's own search (a help's text read a character at a
 * time by code that runs once is a good part of a `--help`). ASCII only, and none of \t, \v,
 * \f or \r.
 */
function spacesOnly(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length && !text.includes('\t') && !text.includes('\v') && !text.includes('\f') && !text.includes('\r');
}

/**
 * One line's chunks as match(/\s*\S+/g) finds them (none: an empty line), laid out as boxWrap
 * does. A chunk is a word with the white space before it; chunks are contiguous, so each line out
 * is one slice of the text (the first chunk of a wrapped line without its white space). In a text
 * whose only white space is the space (`spaced`, see spacesOnly), a word ends at the next one,
 * found by the string's own search.
 */
function layOutLine(text: string, start: number, end: number, width: number, out: string[], spaced: boolean): void {
  let lineStart = -1;
  let lineEnd = start;
  let i = start;
  while (i < end) {
    const chunkStart = i;
    while (i < end && (spaced ? text.charCodeAt(i) === 0x20 : isSpace(text.charCodeAt(i)))) i++;
    if (i === end) break;
    const wordStart = i;
    if (spaced) {
      const space = text.indexOf(' ', i);
      i = space === -1 || space > end ? end : space;
    } else {
      while (i < end && !isSpace(text.charCodeAt(i))) i++;
    }
    if (lineStart === -1) lineStart = chunkStart;
    else if (i - lineStart > width) {
      out.push(text.slice(lineStart, lineEnd));
      lineStart = wordStart;
    }
    lineEnd = i;
  }
  out.push(lineStart === -1 ? '' : text.slice(lineStart, lineEnd));
}

/** JavaScript's \s: white space and line terminators (printable ASCII first, the most of a text). */
function isSpace(c: number): boolean {
  if (c > 0x20 && c < 0x7f) return false;
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether a help text is laid out by hand: a line break followed by white space (Help.preformatted). */
function preformatted(text: string): boolean {
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    const next = text.charCodeAt(i + 1);
    if (next !== 10 && next !== 13 && isSpace(next)) return true;
  }
  return false;
}

