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

let loaded: { info: CatalogueInfo; definitions: ModelDefinition[] } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  // The file is generated and shipped with the code, so it is not parsed with zod at every start
  // (that would load zod for `estimate` alone): test/unit/core/catalogue.test.ts checks that it
  // reads exactly as the API schema reads it, every pricing condition a known kind.
  const { models, source, sourceSha256, license, copyright, generatedAt, count } = raw as unknown as CatalogueFile;
  const info: CatalogueInfo = { source, sourceSha256, license, copyright, generatedAt, count };
  // Managed models are stored without unit and start date; prices mirror the default tier.
  const definitions = models.map(
    (m): ModelDefinition => ({
      id: m.id,
      modelName: m.modelName,
      matchPattern: m.matchPattern,
      startDate: null,
      unit: null,
      ...flatPricesFromTiers(m.pricingTiers),
      tokenizerId: m.tokenizerId,
      tokenizerConfig: m.tokenizerConfig ?? null,
      isLangfuseManaged: true,
      createdAt: m.createdAt,
      prices: pricesFromTiers(m.pricingTiers),
      pricingTiers: m.pricingTiers,
    }),
  );
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
