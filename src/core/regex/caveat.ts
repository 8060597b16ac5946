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
    lastTraits = {
      // eslint-disable-next-line no-control-regex
      unstorable: /\p{Cs}|\u0000/u.test(subject),
      // eslint-disable-next-line no-control-regex
      nonAscii: /[^\u0000-\u007f]/.test(subject),
      foldsToAscii: /[\u017f\u212a]/.test(subject),
      newline: subject.includes('\n'),
    };
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
