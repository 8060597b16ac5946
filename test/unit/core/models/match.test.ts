import { describe, expect, it } from 'vitest';
import { specToDefinition } from '../../../../src/core/models/draft.js';
import { findModel } from '../../../../src/core/models/match.js';
import type { ModelDefinition } from '../../../../src/core/models/types.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';

function custom(id: string, pattern: string, startDate: string | null = null): ModelDefinition {
  return specToDefinition({ name: id, match_pattern: pattern, start_date: startDate, pricing: { input: 1 } }, { id });
}

function builtIn(id: string, pattern: string): ModelDefinition {
  return { ...custom(id, pattern), isLangfuseManaged: true };
}

const ids = (xs: readonly { definition: ModelDefinition }[]): string[] => xs.map((x) => x.definition.id);

describe('findModel', () => {
  it('prefers any matching custom definition over built-in ones', () => {
    const r = findModel('gpt-4o', [builtIn('b', '(?i)^gpt-4o$'), custom('c', 'gpt')]);
    expect(r.winner).toMatchObject({ definition: { id: 'c' }, source: 'custom' });
    expect(r.losers).toMatchObject([{ definition: { id: 'b' }, source: 'built-in', reason: 'custom-definition-first' }]);
    expect(r.tiedWith).toEqual([]);
  });

  it('overrides by pattern, not by name: a custom definition with the same name but a non-matching pattern loses', () => {
    const r = findModel('gpt-4o', [builtIn('b', '(?i)^gpt-4o$'), { ...custom('c', '^gpt-4o-custom$'), modelName: 'gpt-4o' }]);
    expect(r.winner?.definition.id).toBe('b');
  });

  it('takes the latest start date within a group, null last', () => {
    const defs = [custom('none', 'gpt'), custom('old', 'gpt', '2024-01-01T00:00:00.000Z'), custom('new', 'gpt', '2025-01-01T00:00:00.000Z')];
    const r = findModel('gpt-4', defs);
    expect(r.winner?.definition.id).toBe('new');
    expect(r.losers.map((l) => [l.definition.id, l.reason])).toEqual([
      ['old', 'older-start-date'],
      ['none', 'no-start-date'],
    ]);
  });

  it('does not compare the start date with any observation time: a future start date still wins', () => {
    const r = findModel('gpt-4', [custom('past', 'gpt', '2021-01-01T00:00:00.000Z'), custom('future', 'gpt', '2999-01-01T00:00:00.000Z')]);
    expect(r.winner?.definition.id).toBe('future');
  });

  it('reports ties and resolves them deterministically by id, whatever the input order', () => {
    const a = custom('a', 'gpt');
    const b = custom('b', '^gpt-4$');
    for (const defs of [
      [a, b],
      [b, a],
    ]) {
      const r = findModel('gpt-4', defs);
      expect(r.winner?.definition.id).toBe('a');
      expect(ids(r.tiedWith)).toEqual(['b']);
      expect(r.losers).toMatchObject([{ definition: { id: 'b' }, reason: 'tie' }]);
    }
    const dated = findModel('gpt-4', [custom('x', 'gpt', '2024-01-01T00:00:00Z'), custom('y', 'gpt', '2024-01-01T00:00:00.000Z')]);
    expect(ids(dated.tiedWith)).toEqual(['y']);
  });

  it('ignores the unit: a definition priced in characters matches like any other', () => {
    const chars = { ...custom('chars', 'gpt', '2025-01-01T00:00:00.000Z'), unit: 'CHARACTERS' as const };
    expect(findModel('gpt-4', [custom('tokens', 'gpt', '2024-01-01T00:00:00.000Z'), chars]).winner?.definition.id).toBe('chars');
  });

  it('returns no winner when nothing matches', () => {
    expect(findModel('mistral', [custom('a', '^gpt')])).toMatchObject({ winner: null, losers: [], tiedWith: [] });
  });

  it('reports patterns that cannot be evaluated, and whether they could change the answer', () => {
    const bad = custom('bad', '(a)?b\\1');
    const badBuiltIn = builtIn('bad-b', '(?b)gpt');
    const r = findModel('gpt-4', [custom('ok', 'gpt', '2024-01-01T00:00:00Z'), bad, badBuiltIn]);
    expect(r.winner?.definition.id).toBe('ok');
    expect(r.unevaluated.map((u) => [u.definition.id, u.affectsResult])).toEqual([
      ['bad', false],
      ['bad-b', false],
    ]);
    const r2 = findModel('gpt-4', [builtIn('ok', 'gpt'), bad]);
    expect(r2.unevaluated).toMatchObject([{ definition: { id: 'bad' }, affectsResult: true }]);
    expect(findModel('x', [bad]).unevaluated).toMatchObject([{ affectsResult: true }]);
  });

  it('treats a locale-dependent verdict as not evaluable', () => {
    const r = findModel('modèle', [custom('w', '^\\w+$')]);
    expect(r.winner).toBeNull();
    expect(r.unevaluated).toMatchObject([{ definition: { id: 'w' }, affectsResult: true }]);
  });

  it('resolves real names against the built-in catalogue', () => {
    const defs = builtInDefinitions();
    expect(findModel('gpt-4o', defs).winner?.definition.modelName).toBe('gpt-4o');
    expect(findModel('openai/gpt-4o-mini', defs).winner?.definition.modelName).toBe('gpt-4o-mini');
    expect(findModel('claude-3-5-sonnet-latest', defs).winner?.definition.modelName).toBe('claude-3.5-sonnet-latest');
    expect(findModel('gpt-4o ', defs).winner).toBeNull();
    // The catalogue has no ties for its own names.
    for (const d of defs) expect(findModel(d.modelName, defs).tiedWith, d.modelName).toEqual([]);
  });
});
