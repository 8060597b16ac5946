import { z } from 'zod';
import { flatPricesFromTiers, pricesFromTiers, pricingTierSchema } from '../core/models/types.js';
import type { ModelDefinition } from '../core/models/types.js';
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

const catalogueSchema = z.object({
  source: z.string(),
  sourceSha256: z.string(),
  license: z.string(),
  copyright: z.string(),
  generatedAt: z.string(),
  count: z.number(),
  models: z.array(
    z.object({
      id: z.string(),
      modelName: z.string(),
      matchPattern: z.string(),
      createdAt: z.string().nullable(),
      tokenizerId: z.string().nullable(),
      tokenizerConfig: z.unknown(),
      pricingTiers: z.array(pricingTierSchema),
    }),
  ),
});

let loaded: { info: CatalogueInfo; definitions: ModelDefinition[] } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const { models, ...info } = catalogueSchema.parse(raw as unknown);
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
