// The offline set of definitions.
import { describe, expect, it } from 'vitest';
import { specToDefinition } from '../../../src/core/models/draft.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { offlineDefinitions } from '../../../src/model-definitions/index.js';

describe('offlineDefinitions', () => {
  it('adds the built-in catalogue, unless the file brings its own managed definitions', () => {
    const mine = specToDefinition({ name: 'mine', match_pattern: 'mine' });
    expect(offlineDefinitions([mine]).definitions).toHaveLength(1 + builtInDefinitions().length);
    const snapshot = [mine, builtInDefinitions()[0]!];
    expect(offlineDefinitions(snapshot)).toEqual({ definitions: snapshot, builtIn: 'file' });
  });
});
