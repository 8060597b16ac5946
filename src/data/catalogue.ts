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
// per model, what matching a name reads (id, name, pattern, creation date, tokenizer); then one
// line per model with the rest (tokenizer configuration, pricing tiers), parsed only when a
// command reads it. An `estimate` reads one model's prices, not 167.
type IndexRow = [id: string, modelName: string, matchPattern: string, createdAt: string | null, tokenizerId: string | null];
type ModelRecord = [tokenizerConfig: unknown, pricingTiers: PricingTier[]];

/** catalogue.json in the form the bundle carries. */
export function encodeCatalogue(file: CatalogueFile): string {
  const { models, source, sourceSha256, license, copyright, generatedAt, count } = file;
  const info: CatalogueInfo = { source, sourceSha256, license, copyright, generatedAt, count };
  const index = models.map((m): IndexRow => [m.id, m.modelName, m.matchPattern, m.createdAt, m.tokenizerId]);
  const records = models.map((m) => JSON.stringify([m.tokenizerConfig ?? null, m.pricingTiers] satisfies ModelRecord));
  return [JSON.stringify({ info, index }), ...records].join('\n');
}

declare const LLMOBS_CATALOGUE: string | undefined;

let loaded: { info: CatalogueInfo; definitions: ModelDefinition[] } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  // The file is generated and shipped with the code, so it is not parsed with zod at every start
  // (that would load zod for `estimate` alone): test/unit/core/catalogue.test.ts checks that it
  // reads exactly as the API schema reads it, every pricing condition a known kind. Run from the
  // sources, it is encoded here as the build does.
  const text = typeof LLMOBS_CATALOGUE === 'string' ? LLMOBS_CATALOGUE : encodeCatalogue(raw as unknown as CatalogueFile);
  const head = text.indexOf('\n');
  const { info, index } = JSON.parse(head < 0 ? text : text.slice(0, head)) as { info: CatalogueInfo; index: IndexRow[] };
  let lines: string[] | undefined;
  const record = (i: number): ModelRecord => JSON.parse((lines ??= text.split('\n'))[i + 1]!) as ModelRecord;
  // Managed models are stored without unit and start date; prices mirror the default tier. The
  // fields read from a model's record are filled in, as plain properties, on the first read of any.
  const field = (value: unknown): PropertyDescriptor => ({ value, writable: true, enumerable: true, configurable: true });
  const fill = (d: ModelDefinition, i: number): ModelDefinition => {
    const [tokenizerConfig, pricingTiers] = record(i);
    const flat = flatPricesFromTiers(pricingTiers);
    return Object.defineProperties(d, {
      inputPrice: field(flat.inputPrice),
      outputPrice: field(flat.outputPrice),
      totalPrice: field(flat.totalPrice),
      tokenizerConfig: field(tokenizerConfig ?? null),
      prices: field(pricesFromTiers(pricingTiers)),
      pricingTiers: field(pricingTiers),
    });
  };
  const definitions = index.map((row, i): ModelDefinition => {
    return {
      id: row[0],
      modelName: row[1],
      matchPattern: row[2],
      startDate: null,
      unit: null,
      get inputPrice() {
        return fill(this, i).inputPrice;
      },
      get outputPrice() {
        return fill(this, i).outputPrice;
      },
      get totalPrice() {
        return fill(this, i).totalPrice;
      },
      tokenizerId: row[4],
      get tokenizerConfig() {
        return fill(this, i).tokenizerConfig;
      },
      isLangfuseManaged: true,
      createdAt: row[3],
      get prices() {
        return fill(this, i).prices;
      },
      get pricingTiers() {
        return fill(this, i).pricingTiers;
      },
    };
  });
  loaded = { info, definitions };
  return loaded;
}

/** The Langfuse-managed definitions, in the API's shape. Callers must not mutate them. */
export function builtInDefinitions(): readonly ModelDefinition[] {
  return load().definitions;
}

export function catalogueInfo(): CatalogueInfo {
  return load().info;
}
