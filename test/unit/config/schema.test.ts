// The profile file is checked by hand (no zod at start-up): it must accept and reject exactly
// what the zod schema it replaced does, and read the same values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfigFile } from '../../../src/config/schema.js';
import { REGION_NAMES } from '../../../src/config/regions.js';

// The schema the store used before, as it was.
const ProfileSchema = z.object({
  region: z.enum(REGION_NAMES as [string, ...string[]]).optional(),
  baseUrl: z.string().optional(),
  publicKey: z.string().optional(),
  secretKey: z.string().optional(),
  apiKey: z.string().optional(),
});
const ConfigFileSchema = z.object({
  activeProfile: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema).default({}),
});

const anyValue = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
const field = (good: fc.Arbitrary<unknown>) => fc.option(fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: anyValue }), { nil: undefined });
const profile = fc.oneof(
  { weight: 6, arbitrary: fc.record({ region: field(fc.constantFrom(...REGION_NAMES, 'apac', 'EU')), baseUrl: field(fc.webUrl()), publicKey: field(fc.string()), secretKey: field(fc.string()), apiKey: field(fc.string()), extra: field(fc.string()) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: anyValue },
);
// "__proto__" is left out here: zod's record drops such a key (it becomes the object's
// prototype), the hand check keeps it as a profile (see the last test).
const names = fc.constantFrom('prod', 'dev', 'constructor', 'toString', 'a.b', '');
const file = fc.record(
  {
    activeProfile: field(fc.string()),
    profiles: fc.oneof({ weight: 6, arbitrary: fc.dictionary(names, profile, { maxKeys: 4 }) }, { weight: 1, arbitrary: anyValue }),
    __internal__: field(fc.dictionary(fc.string(), fc.string(), { maxKeys: 1 })),
  },
  { requiredKeys: [] },
);

describe('the profile file, read by hand', () => {
  it('accepts what the zod schema accepts, rejects what it rejects, and reads the same values', () => {
    let rejected = 0;
    let accepted = 0;
    fc.assert(
      fc.property(file, (raw) => {
        // Through JSON, as the store reads it (undefined fields disappear, "__proto__" is a key).
        const json: unknown = JSON.parse(JSON.stringify(raw));
        const reference = ConfigFileSchema.safeParse(json);
        const ours = parseConfigFile(json);
        expect(ours.ok).toBe(reference.success);
        if (ours.ok && reference.success) {
          accepted++;
          expect(JSON.stringify(ours.value)).toBe(JSON.stringify(reference.data));
          expect(Object.keys(ours.value.profiles)).toEqual(Object.keys(reference.data.profiles));
        } else if (!ours.ok && !reference.success) {
          rejected++;
          // The same place is named (zod reports the first issue it finds; so do we).
          expect(ours.path).toEqual(reference.error.issues[0]!.path.map(String));
        }
      }),
      { numRuns: 3000, seed: 7 },
    );
    expect(accepted).toBeGreaterThan(300);
    expect(rejected).toBeGreaterThan(300);
  });

  it('says what is wrong and where', () => {
    expect(parseConfigFile({ profiles: { prod: { region: 'apac' } } })).toEqual({ ok: false, path: ['profiles', 'prod', 'region'], message: 'expected eu, us, jp or hipaa, got "apac"' });
    expect(parseConfigFile({ profiles: { prod: { secretKey: 42 } } })).toEqual({ ok: false, path: ['profiles', 'prod', 'secretKey'], message: 'expected a string, got a number' });
    expect(parseConfigFile({ profiles: [] })).toEqual({ ok: false, path: ['profiles'], message: 'expected an object, got an array' });
    expect(parseConfigFile({ activeProfile: null })).toEqual({ ok: false, path: ['activeProfile'], message: 'expected a string, got null' });
    expect(parseConfigFile({})).toEqual({ ok: true, value: { profiles: {} } });
  });

  it('keeps a profile named __proto__ as an ordinary profile (zod dropped it)', () => {
    const parsed = parseConfigFile(JSON.parse('{"profiles": {"__proto__": {"region": "us"}}}'));
    expect(parsed.ok && Object.hasOwn(parsed.value.profiles, '__proto__')).toBe(true);
    expect(parsed.ok && Object.getPrototypeOf(parsed.value.profiles)).toBe(Object.prototype);
  });
});
