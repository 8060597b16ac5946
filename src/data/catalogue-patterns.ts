import type { PrecompiledPattern } from '../core/models/pattern.js';

/**
 * The JS translations of the built-in catalogue's match patterns. Run from the sources there are
 * none (they are computed when used); the build replaces this module with the translations that
 * precompilePatterns() gives for src/data/catalogue.json (scripts/build.mjs), so that `estimate`
 * and `models match` do not translate 167 Postgres patterns at every start.
 */
export const PRECOMPILED_PATTERNS: readonly PrecompiledPattern[] | undefined = undefined;
