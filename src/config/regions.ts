// The one table of Langfuse Cloud regions. Keys are region-scoped: an EU key fails on the US host.

export const REGIONS = {
  eu: { url: 'https://cloud.langfuse.com', label: 'Langfuse Cloud EU' },
  us: { url: 'https://us.cloud.langfuse.com', label: 'Langfuse Cloud US' },
} as const;

export type Region = keyof typeof REGIONS;

export const REGION_NAMES = Object.keys(REGIONS) as Region[];

/** What the Langfuse SDKs use when no host is configured. */
export const DEFAULT_REGION: Region = 'eu';

export function isRegion(value: string): value is Region {
  return Object.hasOwn(REGIONS, value);
}

export function regionForUrl(url: string): Region | undefined {
  const normalised = url.replace(/\/+$/, '');
  return REGION_NAMES.find((region) => REGIONS[region].url === normalised);
}
