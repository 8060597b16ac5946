import { enumerateLanguage, sampleStrings } from '../regex/index.js';
import { compareRank } from './match.js';
import { compilePattern, testPattern } from './pattern.js';
import type { ModelDefinition } from './types.js';

/**
 * Finds custom definitions that can never be chosen. Among custom definitions the server picks
 * the latest start date (null last), so a definition loses a name to any other matching one that
 * ranks higher. Built-in definitions always rank below custom ones and cannot hide them.
 *
 * How it is decided, per definition D:
 * - candidate names: D's own name, strings derived from D's pattern, and the other definitions'
 *   names and derived strings; only those D matches count;
 * - a name on which no higher-ranked definition matches is a witness that D can win: "ok" is
 *   therefore always certain;
 * - when D's pattern is anchored with a finite language (e.g. `(?i)^(openai/)?(gpt-4o)$`), every
 *   name it matches is tested, so "shadowed"/"never-wins" are proven (method "exhaustive");
 *   otherwise they hold for every tested name only (method "sampled").
 */
export type ShadowStatus =
  /** One other definition outranks D on every name D matches. */
  | 'shadowed'
  /** D loses every name it matches, to different definitions. */
  | 'never-wins'
  /** D never wins outright; on some names it ties, and the server's choice is undefined. */
  | 'tie-only'
  | 'ok'
  | 'unknown';

export interface ShadowFinding {
  definition: ModelDefinition;
  status: ShadowStatus;
  /** Definitions that alone outrank D on every tested name. */
  hiddenBy: ModelDefinition[];
  /** Definitions that outrank or tie D on at least one tested name. */
  beatenBy: ModelDefinition[];
  /**
   * "witness": a name was found on which D wins (certain); "exhaustive": every name D can match
   * was tested (certain); "sampled": only the tested names support the verdict.
   */
  method: 'witness' | 'exhaustive' | 'sampled';
  /** How many names D matches were tested. */
  tested: number;
  /** A name D wins, when status is "ok". */
  witness?: string;
  /** How the verdict was reached, in words. */
  note: string;
}

function candidates(d: ModelDefinition): string[] {
  const c = compilePattern(d.matchPattern);
  return c.status === 'ok' ? [d.modelName, ...sampleStrings(c.parsed)] : [d.modelName];
}

export function analyzeShadowing(definitions: readonly ModelDefinition[]): ShadowFinding[] {
  const custom = definitions.filter((d) => !d.isLangfuseManaged);
  const pool = [...new Set(custom.flatMap(candidates))];
  return custom.map((d) => analyzeOne(d, custom, pool));
}

function analyzeOne(d: ModelDefinition, custom: readonly ModelDefinition[], pool: readonly string[]): ShadowFinding {
  const base = { definition: d, hiddenBy: [], beatenBy: [], tested: 0 };
  const compiled = compilePattern(d.matchPattern);
  if (compiled.status !== 'ok') {
    return { ...base, status: 'unknown', method: 'sampled', note: `its pattern cannot be evaluated: ${compiled.reason}` };
  }
  const others = custom.filter((o) => o !== d);
  const enumeration = enumerateLanguage(compiled.parsed);
  let exhaustive = enumeration.finite;
  const proofNames = enumeration.finite ? enumeration.strings : [];
  // Upper-cased variants probe whether a case-sensitive competitor lets D win some spellings.
  const extra = enumeration.finite && enumeration.caseInsensitive ? proofNames.map((s) => s.toUpperCase()) : [];
  const names = [...new Set([...proofNames, ...extra, ...pool])];

  const beatenBy = new Set<ModelDefinition>();
  let hideCandidates: Set<ModelDefinition> | null = null;
  let tested = 0;
  let tieOnly = false;
  let witness: string | undefined;
  const uncertain: string[] = [];

  for (const name of names) {
    const own = testPattern(compiled, name);
    if (own.status !== 'match') continue;
    if (!own.exact) {
      uncertain.push(`"${name}": ${own.reason}`);
      continue;
    }
    tested++;
    const higher: ModelDefinition[] = [];
    const tied: ModelDefinition[] = [];
    for (const o of others) {
      const r = testPattern(o.matchPattern, name);
      if (r.status === 'error' || !r.exact) {
        exhaustive = false;
        uncertain.push(`"${o.modelName}" on "${name}"`);
        continue;
      }
      if (r.status !== 'match') continue;
      const rank = compareRank(o, d);
      if (rank < 0) higher.push(o);
      else if (rank === 0) tied.push(o);
    }
    for (const o of [...higher, ...tied]) beatenBy.add(o);
    if (higher.length === 0) {
      if (tied.length === 0) {
        witness ??= name;
      } else tieOnly = true;
    }
    hideCandidates = new Set(hideCandidates === null ? higher : higher.filter((o) => hideCandidates!.has(o)));
    // For a case-insensitive D the canonical names stand for every spelling; only a
    // case-insensitive competitor is known to beat D on all of them.
    if (enumeration.finite && enumeration.caseInsensitive && proofNames.includes(name) && /[a-z]/.test(name)) {
      if (!higher.some((o) => compileIcase(o))) exhaustive = false;
    }
  }

  const method = exhaustive ? 'exhaustive' : 'sampled';
  const hiddenBy = [...(hideCandidates ?? [])];
  const how = exhaustive
    ? `all ${tested} names its pattern can match were tested`
    : `${tested} names were tested (${enumeration.finite ? 'some competitors could not be evaluated exactly' : `its pattern ${enumeration.reason}`})`;
  const caveat = uncertain.length > 0 ? `; not decidable offline: ${uncertain.slice(0, 3).join(', ')}${uncertain.length > 3 ? ', ...' : ''}` : '';
  if (witness !== undefined) {
    return { ...base, status: 'ok', hiddenBy: [], beatenBy: [...beatenBy], method: 'witness', tested, witness, note: `it wins on "${witness}"${caveat}` };
  }
  if (tested === 0) {
    return { ...base, status: 'unknown', method, tested, note: `none of the tested names matched its pattern (not even its own name)${caveat}` };
  }
  if (tieOnly) {
    return { ...base, status: 'tie-only', hiddenBy, beatenBy: [...beatenBy], method, tested, note: `it never wins outright and only ties on some names; ${how}${caveat}` };
  }
  const status = hiddenBy.length > 0 ? 'shadowed' : 'never-wins';
  return { ...base, status, hiddenBy, beatenBy: [...beatenBy], method, tested, note: `${how}${caveat}` };
}

function compileIcase(d: ModelDefinition): boolean {
  const c = compilePattern(d.matchPattern);
  return c.status === 'ok' && c.parsed.options.icase;
}
