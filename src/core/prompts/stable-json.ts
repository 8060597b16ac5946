/**
 * Pretty JSON with object keys sorted at every depth, so two configs that differ only in key
 * order print the same and a diff shows real changes only. Array order is kept: it is meaningful.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a `__proto__` key from JSON stays a key.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
