// The one table of Langfuse Cloud regions (https://langfuse.com/security/data-regions). Keys are
// region-scoped: accounts, projects and keys are fully separate between regions, so an EU key
// fails on the US host. Everything that lists regions (flags, prompts, completions, doctor,
// docs/reference.md) reads this table.

export const REGIONS = {
  eu: { url: 'https://cloud.langfuse.com', label: 'Langfuse Cloud EU', location: 'Ireland (AWS eu-west-1)' },
  us: { url: 'https://us.cloud.langfuse.com', label: 'Langfuse Cloud US', location: 'Oregon (AWS us-west-2)' },
  jp: { url: 'https://jp.cloud.langfuse.com', label: 'Langfuse Cloud Japan', location: 'Tokyo (AWS ap-northeast-1)' },
  hipaa: { url: 'https://hipaa.cloud.langfuse.com', label: 'Langfuse Cloud HIPAA', location: 'Oregon (AWS us-west-2)' },
} as const;

export type Region = keyof typeof REGIONS;

export const REGION_NAMES = Object.keys(REGIONS) as Region[];

/** "eu, us, jp or hipaa", for messages. */
export const REGION_LIST = `${REGION_NAMES.slice(0, -1).join(', ')} or ${REGION_NAMES[REGION_NAMES.length - 1]}`;

/** What the Langfuse SDKs use when no host is configured. */
export const DEFAULT_REGION: Region = 'eu';

export function isRegion(value: string): value is Region {
  return Object.hasOwn(REGIONS, value);
}

/** The region whose host this is (a trailing slash or `/api/public` is ignored); undefined for other servers. */
export function regionForUrl(url: string): Region | undefined {
  const normalised = url.replace(/\/+$/, '').replace(/\/api\/public$/, '').toLowerCase();
  return REGION_NAMES.find((region) => REGIONS[region].url === normalised);
}
