import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { knownVerdict } from '../core/models/known-patterns.js';
import { flatPricesFromTiers, pricesFromTiers } from '../core/models/types.js';
import type { ModelDefinition, PricingTier } from '../core/models/types.js';
import raw from './catalogue.json' with { type: 'json' };

/** Provenance of the built-in catalogue (`npm run catalogue` regenerates it). */
export interface CatalogueInfo {
  source: string;
  sourceSha256: string;
  license: string;
  copyright: string;
  generatedAt: string;
  count: number;
}

/** catalogue.json as `npm run catalogue` writes it. */
export interface CatalogueFile extends CatalogueInfo {
  models: Array<{
    id: string;
    modelName: string;
    matchPattern: string;
    createdAt: string | null;
    tokenizerId: string | null;
    tokenizerConfig?: unknown;
    pricingTiers: PricingTier[];
  }>;
}

// The catalogue as the build writes it, in a data file beside the bundle (dist/catalogue.data;
// code would carry it in V8's compiled code too, read and copied at every start): a first line of
// JSON with the provenance and, per model, what choosing the definitions to match a name against
// reads (its pattern); then one line per model with the rest, parsed only for the definitions a
// command uses. An `estimate` of one name builds the definitions its patterns may match (one, for
// gpt-4o), not 167, and decodes only their lines.
type ModelRecord = [id: string, modelName: string, createdAt: string | null, tokenizerId: string | null, tokenizerConfig: unknown, pricingTiers: PricingTier[]];

/** catalogue.json in the form the bundle carries. */
export function encodeCatalogue(file: CatalogueFile): string {
  const { models, source, sourceSha256, license, copyright, generatedAt, count } = file;
  const info: CatalogueInfo = { source, sourceSha256, license, copyright, generatedAt, count };
  const patterns = models.map((m) => m.matchPattern);
  const records = models.map((m) => JSON.stringify([m.id, m.modelName, m.createdAt, m.tokenizerId, m.tokenizerConfig ?? null, m.pricingTiers] satisfies ModelRecord));
  return [JSON.stringify({ info, patterns }), ...records].join('\n');
}

/** The data file's name in dist/, written in by the build; run from the sources, there is none. */
declare const LLMOBS_CATALOGUE_FILE: string | undefined;

interface Loaded {
  info: CatalogueInfo;
  patterns: string[];
  data: Buffer;
  /** Where the models' lines start in `data`, found as far as needed (one more for the end). */
  starts?: number[];
  /** Each model's definition, built on first use (the same object every time). */
  built: Array<ModelDefinition | undefined>;
  all?: ModelDefinition[];
}

let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  // The file is generated and shipped with the code, so it is not parsed with zod at every start
  // (that would load zod for `estimate` alone): test/unit/data/catalogue.test.ts checks that it
  // reads exactly as the API schema reads it, every pricing condition a known kind. Run from the
  // sources, it is encoded here as the build does. The data file is beside the bundle's files.
  const data =
    typeof LLMOBS_CATALOGUE_FILE === 'string'
      ? readFileSync(join(import.meta.dirname, LLMOBS_CATALOGUE_FILE))
      : Buffer.from(encodeCatalogue(raw as unknown as CatalogueFile), 'utf8');
  const head = data.indexOf(10);
  const { info, patterns } = JSON.parse(data.toString('utf8', 0, head < 0 ? data.length : head)) as { info: CatalogueInfo; patterns: string[] };
  loaded = { info, patterns, data, built: new Array<ModelDefinition | undefined>(patterns.length) };
  return loaded;
}

/** Model i's line of the data file (lines are found as far as needed: a name matches the first few). */
function recordLine(state: Loaded, i: number): string {
  const starts = (state.starts ??= [state.data.indexOf(10) + 1]);
  while (starts.length < i + 2) {
    const end = state.data.indexOf(10, starts[starts.length - 1]!);
    starts.push(end === -1 ? state.data.length + 1 : end + 1);
  }
  return state.data.toString('utf8', starts[i]!, starts[i + 1]! - 1);
}

function definitionAt(state: Loaded, i: number): ModelDefinition {
  let definition = state.built[i];
  if (definition === undefined) {
    const [id, modelName, createdAt, tokenizerId, tokenizerConfig, pricingTiers] = JSON.parse(recordLine(state, i)) as ModelRecord;
    // Managed models are stored without unit and start date; prices mirror the default tier.
    definition = {
      id,
      modelName,
      matchPattern: state.patterns[i]!,
      startDate: null,
      unit: null,
      ...flatPricesFromTiers(pricingTiers),
      tokenizerId,
      tokenizerConfig: tokenizerConfig ?? null,
      isLangfuseManaged: true,
      createdAt,
      prices: pricesFromTiers(pricingTiers),
      pricingTiers,
    };
    state.built[i] = definition;
  }
  return definition;
}

/** The Langfuse-managed definitions, in the API's shape. Callers must not mutate them. */
export function builtInDefinitions(): readonly ModelDefinition[] {
  const state = load();
  return (state.all ??= state.patterns.map((_, i) => definitionAt(state, i)));
}

/**
 * The built-in definitions that matching `model` must look at, in catalogue order: all but those
 * whose pattern, known at build time, certainly and exactly does not match it (they could take no
 * part in the result: not as a match, nor as a pattern left unevaluated). The same objects as
 * `builtInDefinitions()`.
 */
export function builtInCandidates(model: string): ModelDefinition[] {
  const state = load();
  const out: ModelDefinition[] = [];
  state.patterns.forEach((pattern, i) => {
    const verdict = knownVerdict(pattern, model);
    if (verdict === undefined || verdict.status !== 'no-match' || !verdict.exact) out.push(definitionAt(state, i));
  });
  return out;
}

export function catalogueInfo(): CatalogueInfo {
  return load().info;
}
