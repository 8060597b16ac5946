// Langfuse server versions and the features that depend on them.

/** The first Langfuse version with `PUT /api/public/models/{id}` (update in place). */
export const MODEL_PUT_SINCE = '4.35.0';

/** Compares dotted versions such as "4.16.0" or "v4.35.1" numerically; a missing part counts as 0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.trim().replace(/^v/i, '').split(/[.+-]/).slice(0, 3).map((p) => Number.parseInt(p, 10) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether a server of this version updates models in place; undefined when the version is unknown. */
export function supportsModelPut(version: string | undefined | null): boolean | undefined {
  if (!version || !/^v?\d+(\.\d+)*/i.test(version.trim())) return undefined;
  return compareVersions(version, MODEL_PUT_SINCE) >= 0;
}
