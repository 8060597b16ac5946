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

// The catalogue as the bundle carries it (scripts/build.mjs writes it in as LLMOBS_CATALOGUE, so
// that catalogue.json itself is not in the bundle): a first line of JSON with the provenance and,
// per model, what choosing the definitions to match a name against reads (its pattern); then one
// line per model with the rest, parsed only for the definitions a command uses. An `estimate` of one name builds the definitions its patterns may
// match (one, for gpt-4o), not 167.
type ModelRecord = [id: string, modelName: string, createdAt: string | null, tokenizerId: string | null, tokenizerConfig: unknown, pricingTiers: PricingTier[]];

/** catalogue.json in the form the bundle carries. */
export function encodeCatalogue(file: CatalogueFile): string {
  const { models, source, sourceSha256, license, copyright, generatedAt, count } = file;
  const info: CatalogueInfo = { source, sourceSha256, license, copyright, generatedAt, count };
  const patterns = models.map((m) => m.matchPattern);
  const records = models.map((m) => JSON.stringify([m.id, m.modelName, m.createdAt, m.tokenizerId, m.tokenizerConfig ?? null, m.pricingTiers] satisfies ModelRecord));
  return [JSON.stringify({ info, patterns }), ...records].join('\n');
}

declare const LLMOBS_CATALOGUE: string | undefined;

interface Loaded {
  info: CatalogueInfo;
  patterns: string[];
  text: string;
  lines?: string[];
  /** Each model's definition, built on first use (the same object every time). */
  built: Array<ModelDefinition | undefined>;
  all?: ModelDefinition[];
}

let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  // The file is generated and shipped with the code, so it is not parsed with zod at every start
  // (that would load zod for `estimate` alone): test/unit/core/catalogue.test.ts checks that it
  // reads exactly as the API schema reads it, every pricing condition a known kind. Run from the
  // sources, it is encoded here as the build does.
  const text = typeof LLMOBS_CATALOGUE === 'string' ? LLMOBS_CATALOGUE : encodeCatalogue(raw as unknown as CatalogueFile);
  const head = text.indexOf('\n');
  const { info, patterns } = JSON.parse(head < 0 ? text : text.slice(0, head)) as { info: CatalogueInfo; patterns: string[] };
  loaded = { info, patterns, text, built: new Array<ModelDefinition | undefined>(patterns.length) };
  return loaded;
}

function definitionAt(state: Loaded, i: number): ModelDefinition {
  let definition = state.built[i];
  if (definition === undefined) {
    const [id, modelName, createdAt, tokenizerId, tokenizerConfig, pricingTiers] = JSON.parse((state.lines ??= state.text.split('\n'))[i + 1]!) as ModelRecord;
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
