import { describe, expect, it } from 'vitest';
import { specToDefinition } from '../../../../src/core/models/draft.js';
import { analyzeShadowing, type ShadowFinding } from '../../../../src/core/models/shadowing.js';
import type { ModelDefinition } from '../../../../src/core/models/types.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';

function def(id: string, pattern: string, startDate: string | null = null): ModelDefinition {
  return specToDefinition({ name: id, match_pattern: pattern, start_date: startDate, pricing: { input: 1 } }, { id });
}

function find(findings: ShadowFinding[], id: string): ShadowFinding {
  const f = findings.find((x) => x.definition.id === id);
  if (!f) throw new Error(`no finding for ${id}`);
  return f;
}

const ids = (ds: readonly ModelDefinition[]): string[] => ds.map((d) => d.id).sort();

describe('analyzeShadowing', () => {
  it('proves a definition hidden by a later, broader one over its whole (finite) language', () => {
    const findings = analyzeShadowing([def('broad', '(?i)^(openai/)?gpt-4o$', '2025-01-01'), def('narrow', '(?i)^gpt-4o$', '2024-01-01')]);
    const narrow = find(findings, 'narrow');
    expect(narrow).toMatchObject({ status: 'shadowed', method: 'exhaustive' });
    expect(ids(narrow.hiddenBy)).toEqual(['broad']);
    expect(find(findings, 'broad')).toMatchObject({ status: 'ok', method: 'witness' });
  });

  it('counts a null start date as the lowest rank', () => {
    const f = analyzeShadowing([def('dated', '(?i)^m$', '2020-01-01'), def('undated', '(?i)^m$')]);
    expect(find(f, 'undated')).toMatchObject({ status: 'shadowed', method: 'exhaustive' });
    expect(find(f, 'dated').status).toBe('ok');
  });

  it('finds a witness when a case-sensitive competitor misses some spellings', () => {
    const f = analyzeShadowing([def('cs', '^gpt-4o$', '2025-01-01'), def('ci', '(?i)^gpt-4o$', '2024-01-01')]);
    expect(find(f, 'ci')).toMatchObject({ status: 'ok', witness: 'GPT-4O' });
  });

  it('reports a definition that loses every name to different definitions', () => {
    const f = analyzeShadowing([def('a', '(?i)^a$', '2025-01-01'), def('b', '(?i)^b$', '2025-01-01'), def('ab', '(?i)^(a|b)$', '2024-01-01')]);
    expect(find(f, 'ab')).toMatchObject({ status: 'never-wins', method: 'exhaustive', hiddenBy: [] });
    expect(ids(find(f, 'ab').beatenBy)).toEqual(['a', 'b']);
  });

  it('reports definitions that only tie, since the server may pick either', () => {
    const f = analyzeShadowing([def('x', '(?i)^m$'), def('y', '(?i)^m$')]);
    expect(find(f, 'x').status).toBe('tie-only');
    expect(find(f, 'y').status).toBe('tie-only');
  });

  it('labels verdicts on infinite languages as sampled', () => {
    const f = analyzeShadowing([def('all', '(?i)^gpt-4', '2025-01-01'), def('sub', '(?i)^gpt-4-turbo.*$', '2024-01-01')]);
    expect(find(f, 'sub')).toMatchObject({ status: 'shadowed', method: 'sampled' });
    expect(find(f, 'sub').note).toContain('names were tested');
  });

  it('is certain that a definition is not shadowed once it wins a name', () => {
    const f = analyzeShadowing([def('a', '(?i)^gpt-4o$', '2025-01-01'), def('b', '(?i)^gpt-4', '2024-01-01')]);
    expect(find(f, 'b')).toMatchObject({ status: 'ok', method: 'witness' });
  });

  it('ignores built-in definitions, which never outrank custom ones', () => {
    const f = analyzeShadowing([...builtInDefinitions(), def('mine', '(?i)^gpt-4o$')]);
    expect(f).toHaveLength(1);
    expect(find(f, 'mine').status).toBe('ok');
  });

  it('says so when a pattern cannot be evaluated', () => {
    const f = analyzeShadowing([def('bad', '(?b)x')]);
    expect(find(f, 'bad')).toMatchObject({ status: 'unknown' });
    expect(find(f, 'bad').note).toContain('cannot be evaluated');
  });
});
