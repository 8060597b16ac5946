import { z } from 'zod';
import { REGION_NAMES } from './regions.js';

export const ProfileSchema = z.object({
  region: z.enum(REGION_NAMES as [string, ...string[]]).optional(),
  baseUrl: z.string().optional(),
  publicKey: z.string().optional(),
  secretKey: z.string().optional(),
  apiKey: z.string().optional(),
});

export type Profile = z.infer<typeof ProfileSchema>;

export const ConfigFileSchema = z.object({
  activeProfile: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema).default({}),
});

export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Profile names appear in file names, shell completion and URLs of docs: keep them plain. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
