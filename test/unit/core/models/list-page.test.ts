import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareListOrder, MODELS_PAGE_SIZE, modelsPage } from '../../../../src/core/models/list-page.js';

const definition = fc.record({
  id: fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 3 }),
  modelName: fc.string({ unit: fc.constantFrom('g', 'p', 't', '-', '4', 'o', 'G'), maxLength: 4 }),
  unit: fc.constantFrom(null, 'TOKENS' as const, 'IMAGES' as const),
  startDate: fc.constantFrom(null, '2024-01-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'),
});

describe('the server\'s list order', () => {
  it('is by name, then unit (none last), then the latest start date (none last), then id', () => {
    const a = { id: 'z', modelName: 'a', unit: null, startDate: null };
    expect(compareListOrder(a, { ...a, modelName: 'b' })).toBeLessThan(0);
    // Code-unit order: capitals before small letters, as the local server compares.
    expect(compareListOrder({ ...a, modelName: 'B' }, a)).toBeLessThan(0);
    expect(compareListOrder({ ...a, unit: 'TOKENS' }, a)).toBeLessThan(0);
    expect(compareListOrder({ ...a, startDate: '2025-01-01T00:00:00Z' }, { ...a, startDate: '2024-01-01T00:00:00Z' })).toBeLessThan(0);
    expect(compareListOrder({ ...a, startDate: '2024-01-01T00:00:00Z' }, a)).toBeLessThan(0);
    expect(compareListOrder({ ...a, id: 'y' }, a)).toBeLessThan(0);
  });
});

describe('modelsPage', () => {
  it('pages of 50 unless told, each a slice of the whole list in order, with the API\'s meta', () => {
    fc.assert(
      fc.property(fc.array(definition, { maxLength: 60 }), fc.integer({ min: 1, max: 100 }), (definitions, limit) => {
        const sorted = [...definitions].sort(compareListOrder);
        const pages = Math.ceil(definitions.length / limit);
        const read = [];
        for (let page = 1; page <= pages + 1; page++) {
          const answer = modelsPage(definitions, { page, limit });
          expect(answer.meta).toEqual({ page, limit, totalItems: definitions.length, totalPages: pages });
          expect(answer.data.length).toBe(page <= pages ? Math.min(limit, definitions.length - (page - 1) * limit) : 0);
          read.push(...answer.data);
        }
        expect(read).toEqual(sorted);
        expect(modelsPage(definitions, {}).meta.limit).toBe(MODELS_PAGE_SIZE);
        expect(modelsPage(definitions, {}).data).toEqual(sorted.slice(0, MODELS_PAGE_SIZE));
      }),
    );
  });
});
