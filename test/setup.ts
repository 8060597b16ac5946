import { afterAll } from 'vitest';
import { loadPatternEngine } from '../src/core/models/engine.js';
import { loadDecimal } from '../src/core/precision.js';
import { removeTempDirs } from './helpers/cli.js';

// The CLI loads the regex engine and decimal.js when it needs them (src/core/models/engine.ts,
// src/core/precision.ts); unit tests call the synchronous core directly, so both are loaded for
// them here. The e2e tests run the built binary, where nothing is loaded ahead.
await Promise.all([loadPatternEngine(), loadDecimal()]);

afterAll(() => removeTempDirs());
