/**
 * Postgres "advanced regular expressions" (ARE), as the server matches model names with
 * `text ~ pattern`: a parser that follows Postgres' lexer and parser (are-parser.ts), a matcher
 * that runs the pattern on an automaton with Postgres' semantics (automaton.ts, matcher.ts), the
 * literals a pattern requires and may be decided by (literal.ts, prefilter.ts), what makes a
 * JavaScript translation exact or not (caveat.ts, are-to-js.ts), a JavaScript regex parser and
 * safety check for the tiers' usage-key conditions (js-parser.ts, js-safety.ts), and sample
 * strings of a pattern's language (samples.ts). Each file's header says what it follows.
 *
 * This file is the engine's surface for the rest of the code. The package has no side effects,
 * so a caller that imports only the light parts (the literal checks known patterns use at start)
 * does not load the parser or the automaton.
 */
export type { AreNode, ParsedAre } from './are-ast.js';
export { parseAre } from './are-parser.js';
export { type AreFeatures, areFeatures, backrefProblem, subjectCaveat, translateAre } from './are-to-js.js';
export { parseJsRegex } from './js-parser.js';
export { checkRegexSafety } from './js-safety.js';
export { foldAscii, type LiteralForm, literalMatch, mayMatch, type Prefilter } from './literal.js';
export { type AreMatcher, compileMatcher, DEFAULT_LIMITS } from './matcher.js';
export { literalFormOf, prefilterOf } from './prefilter.js';
export { enumerateLanguage, sampleStrings } from './samples.js';
