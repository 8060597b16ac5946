// When an offline verdict on a model name may differ from Postgres': kept apart from the parser
// and automata (are-to-js.ts computes a pattern's features), so that a verdict read from the
// patterns known at build time does not load those.

/**
 * The facts needed to tell, per subject string, whether the offline verdict is guaranteed to be
 * Postgres' (see `subjectCaveat`).
 */
export interface AreFeatures {
  /** Uses classes or word constraints, whose non-ASCII members depend on the database locale. */
  usesClasses: boolean;
  /** Has non-ASCII characters of its own (literal or in brackets). */
  hasNonAscii: boolean;
  hasBackrefs: boolean;
  /** Uses \D, \S or \W in a newline-sensitive mode. */
  negatedEscapeWithNewlineMode: boolean;
}

/** What the caveats look at in a subject, read once per subject. */
interface SubjectTraits {
  /** Holds a lone surrogate or U+0000, which a Postgres text value cannot. */
  unstorable: boolean;
  nonAscii: boolean;
  /** Holds U+017F or U+212A, which JS case folding maps to ASCII letters. */
  foldsToAscii: boolean;
  newline: boolean;
}

let lastSubject: string | undefined;
let lastTraits: SubjectTraits | undefined;

function traitsOf(subject: string): SubjectTraits {
  if (subject !== lastSubject || lastTraits === undefined) {
    lastSubject = subject;
    // One pass over the code units (regular expressions with \p{...} cost more to build than this).
    const traits: SubjectTraits = { unstorable: false, nonAscii: false, foldsToAscii: false, newline: false };
    for (let i = 0; i < subject.length; i++) {
      const c = subject.charCodeAt(i);
      if (c < 0x80) {
        if (c === 0) traits.unstorable = true;
        else if (c === 0x0a) traits.newline = true;
        continue;
      }
      traits.nonAscii = true;
      if (c === 0x17f || c === 0x212a) traits.foldsToAscii = true;
      else if (c >= 0xd800 && c <= 0xdbff) {
        // A high surrogate followed by a low one is one code point; alone, it is a lone surrogate.
        const next = i + 1 < subject.length ? subject.charCodeAt(i + 1) : 0;
        if (next >= 0xdc00 && next <= 0xdfff) i++;
        else traits.unstorable = true;
      } else if (c >= 0xdc00 && c <= 0xdfff) traits.unstorable = true;
    }
    lastTraits = traits;
  }
  return lastTraits;
}

/**
 * Why the offline verdict for this subject may differ from Postgres', or null when it cannot.
 * Everything here concerns characters outside ASCII (where Postgres consults the database
 * locale) or newlines in newline-sensitive mode.
 */
export function subjectCaveat(t: AreFeatures, icase: boolean, subject: string): string | null {
  const s = traitsOf(subject);
  if (s.unstorable) return 'the model name contains characters a Postgres text value cannot hold';
  if (s.nonAscii && t.usesClasses) {
    return 'the pattern uses character classes or word boundaries, which Postgres applies to non-ASCII characters according to the database locale';
  }
  if (icase) {
    // JS case folding maps these two to ASCII letters; Postgres' case variants of ASCII letters never include them.
    if (s.foldsToAscii) return 'case-insensitive matching of U+017F or U+212A differs between Postgres and JavaScript';
    if (s.nonAscii && (t.hasNonAscii || t.hasBackrefs)) {
      return 'case-insensitive matching of non-ASCII characters depends on the database locale';
    }
  }
  if (t.negatedEscapeWithNewlineMode && s.newline) {
    return 'how \\D, \\S and \\W treat newlines in newline-sensitive mode is not documented';
  }
  return null;
}
