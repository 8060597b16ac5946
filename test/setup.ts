import { afterAll } from 'vitest';
import { loadPatternEngine } from '../src/core/models/engine.js';
import { removeTempDirs } from './helpers/cli.js';

// The CLI loads the regex engine before it matches or prices (src/core/models/engine.ts); unit
// tests call the synchronous core directly, so it is loaded for them here. The e2e tests run the
// built binary, where nothing is loaded ahead.
await loadPatternEngine();

afterAll(() => removeTempDirs());
