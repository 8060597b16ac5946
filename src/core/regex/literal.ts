// What matching needs of a pattern's literals at run time (regex/prefilter.ts computes them from
// the parsed pattern): kept apart from the parser and automata, so that a name the literals decide
// is matched without loading those.

/**
 * Literal prefilters: strings that every match of a pattern must contain (see prefilter.ts).
 */
export interface Prefilter {
  /** Compare with ASCII letters folded to lower case: the pattern is case-insensitive. */
  icase: boolean;
  /** Every group must hold: the subject contains at least one literal of the group. */
  all: string[][];
}

/**
 * A pattern whose matches are a few literal strings, anchored at the start of the subject, its
 * end, both or neither: `(?i)^(openai/)?(gpt-4o)$` is "gpt-4o" or "openai/gpt-4o", the whole
 * name, in any case. Most of the catalogue reads so, and its verdict is then a comparison of
 * strings, the same as the automata's, without building them.
 */
export interface LiteralForm {
  icase: boolean;
  /** Anchored at the start of the subject (`^` outside newline-sensitive mode, or `\A`). */
  start: boolean;
  /** Anchored at its end (`$` outside newline-sensitive mode, or `\Z`). */
  end: boolean;
  /** Every string the pattern matches between the anchors (ASCII letters in lower case with icase). */
  strings: string[];
}

let lastSubject = '';
let lastFolded = '';

/** ASCII capitals to lower case, nothing else: the case variants the automata give ASCII letters (the last subject is remembered). */
export function foldAscii(subject: string): string {
  if (subject !== lastSubject) {
    lastSubject = subject;
    lastFolded = subject;
    for (let i = 0; i < subject.length; i++) {
      const c = subject.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) {
        lastFolded = subject.replace(/[A-Z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x20));
        break;
      }
    }
  }
  return lastFolded;
}

/** False when the subject cannot match a pattern with this prefilter; true when it may. */
export function mayMatch(prefilter: Prefilter, subject: string): boolean {
  const text = prefilter.icase ? foldAscii(subject) : subject;
  return prefilter.all.every((group) => group.some((lit) => text.includes(lit)));
}

/** `subject ~ pattern` for a pattern with this literal form. */
export function literalMatch(form: LiteralForm, subject: string): boolean {
  const text = form.icase ? foldAscii(subject) : subject;
  if (form.start && form.end) return form.strings.includes(text);
  if (form.start) return form.strings.some((s) => text.startsWith(s));
  if (form.end) return form.strings.some((s) => text.endsWith(s));
  return form.strings.some((s) => text.includes(s));
}
