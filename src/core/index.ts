// The pure estimation core: model definitions, matching, usage and cost, all reproducing what
// the Langfuse server does at ingestion (its tokenization rules are in src/tokenizer/).
export * from './models/types.js';
export * from './models/schemas.js';
export * from './models/issues.js';
export * from './models/draft.js';
export * from './models/pattern.js';
export { loadPatternEngine, preparePatterns } from './models/engine.js';
export type { PatternEngine } from './models/engine-slot.js';
export * from './models/match.js';
export * from './models/checks.js';
export { checkPricingTiers, checkPrices } from './models/tier-checks.js';
export * from './models/request.js';
export * from './models/shadowing.js';
export * from './usage.js';
export * from './pricing-tier.js';
export * from './cost.js';
export * from './precision.js';
export * from './warnings.js';
export * from './json-depth.js';
export * from './estimate.js';
