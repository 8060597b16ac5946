// The bundle seeds the pattern cache with the catalogue's translations computed at build time
// (scripts/build.mjs); matching must not be able to tell them from patterns compiled at run time.
import { describe, expect, it, vi } from 'vitest';
import catalogue from '../../../src/data/catalogue.json' with { type: 'json' };

const PATTERN_MODULE = '../../../src/core/models/pattern.js';
type PatternModule = typeof import('../../../src/core/models/pattern.js');

async function freshModule(): Promise<PatternModule> {
  vi.resetModules();
  return (await import(PATTERN_MODULE)) as PatternModule;
}

describe('precompiled match patterns', () => {
  const patterns = catalogue.models.map((m) => m.matchPattern);
  const names = catalogue.models.map((m) => m.modelName);
  // Names as given, and the variants where the server's rules bite: case, provider prefixes,
  // suffixes, non-ASCII, newlines, the characters JS folds differently.
  const subjects = [...names, ...names.flatMap((n) => [n.toUpperCase(), `openai/${n}`, `${n}-2099`, `${n}é`, `${n}\n`, `x${n}`])].concat(['', 'ſ', 'K']);

  it('translate every pattern of the built-in catalogue', async () => {
    const plain = await freshModule();
    expect(plain.precompilePatterns(patterns)).toHaveLength(new Set(patterns).size);
  });

  it('test, describe and parse every name exactly as compiled patterns do', async () => {
    const plain = await freshModule();
    // Through JSON, as the build writes them into the bundle.
    const precompiled = JSON.parse(JSON.stringify(plain.precompilePatterns(patterns))) as ReturnType<PatternModule['precompilePatterns']>;
    const seeded = await freshModule();
    expect(seeded).not.toBe(plain);
    seeded.seedCompiledPatterns(precompiled);
    for (const pattern of new Set(patterns)) {
      for (const subject of subjects) expect(seeded.testPattern(pattern, subject), `${pattern} ~ ${JSON.stringify(subject)}`).toEqual(plain.testPattern(pattern, subject));
      expect(seeded.describePattern(pattern)).toEqual(plain.describePattern(pattern));
      const [a, b] = [seeded.compilePattern(pattern), plain.compilePattern(pattern)];
      expect(a.status === 'ok' && b.status === 'ok' && [a.parsed, a.regex.source, a.regex.flags]).toEqual(b.status === 'ok' && [b.parsed, b.regex.source, b.regex.flags]);
    }
  });

  it('leave a pattern that does not translate to compilePattern', async () => {
    const plain = await freshModule();
    expect(plain.precompilePatterns(['(?i)^ok$', '(unclosed', '(?i)^ok$'])).toEqual([{ pattern: '(?i)^ok$', translation: expect.objectContaining({ flags: 'isu' }) }]);
  });
});
