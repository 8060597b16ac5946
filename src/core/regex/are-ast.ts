/** Character classes Postgres knows inside brackets (`[[:name:]]`) and behind `\d \s \w`. */
export const CLASS_NAMES = [
  'alnum',
  'alpha',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'xdigit',
  'word',
] as const;
export type ClassName = (typeof CLASS_NAMES)[number];

/** Members of each class among ASCII characters, where every Postgres locale agrees. */
export const ASCII_CLASS_RANGES: Record<ClassName, ReadonlyArray<readonly [number, number]>> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
};

export type SetItem =
  | { kind: 'char'; cp: number }
  | { kind: 'range'; from: number; to: number }
  | { kind: 'class'; name: ClassName };

export type AnchorKind =
  | 'bol' // ^
  | 'eol' // $
  | 'strStart' // \A
  | 'strEnd' // \Z
  | 'wordStart' // \m, [[:<:]]
  | 'wordEnd' // \M, [[:>:]]
  | 'wordBoundary' // \y
  | 'notWordBoundary'; // \Y

export type AreNode =
  | { type: 'empty' }
  | { type: 'char'; cp: number }
  | { type: 'any' }
  /** `negatedEscape` marks \D \S \W, whose newline handling in newline-sensitive mode is not documented. */
  | { type: 'set'; negated: boolean; items: SetItem[]; negatedEscape?: boolean }
  | { type: 'anchor'; kind: AnchorKind }
  /** `capture` is the subexpression number, or null for non-capturing parentheses. */
  | { type: 'group'; capture: number | null; body: AreNode }
  | { type: 'look'; behind: boolean; negate: boolean; body: AreNode }
  | { type: 'backref'; index: number }
  | { type: 'concat'; items: AreNode[] }
  | { type: 'alt'; branches: AreNode[] }
  | { type: 'repeat'; body: AreNode; min: number; max: number; greedy: boolean };

/** Matching options an ARE carries, set by embedded options such as `(?i)`. */
export interface AreOptions {
  /** `i`: case-insensitive. */
  icase: boolean;
  /** `n`/`p`: `.` and negated brackets do not match newline. */
  nlStop: boolean;
  /** `n`/`w`: `^` and `$` also match at line boundaries. */
  nlAnch: boolean;
  /** `x`: white space and `#` comments are ignored. */
  expanded: boolean;
  /** `q` or `***=`: the rest of the pattern is a literal string. */
  quote: boolean;
}

export interface ParsedAre {
  ast: AreNode;
  options: AreOptions;
  /** The embedded-option prefix as written (e.g. `(?i)`), empty when there is none. */
  prefix: string;
  groupCount: number;
}
