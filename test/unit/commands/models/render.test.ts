// Prices for people, in the unit of the definition.
import { describe, expect, it } from 'vitest';
import { priceText } from '../../../../src/commands/models/render.js';

describe('prices for people', () => {

  it('shows token and character prices per million, other units per unit', () => {
    expect(priceText(0.0000025, 'TOKENS')).toBe('$2.50/1M');
    expect(priceText(0.00000125, null)).toBe('$1.25/1M');
    expect(priceText(0.000001, 'CHARACTERS')).toBe('$1.00/1M');
    expect(priceText(0.04, 'IMAGES')).toBe('$0.04/image');
    expect(priceText(0.01, 'REQUESTS')).toBe('$0.01/request');
  });
});
