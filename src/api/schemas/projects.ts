import { z } from 'zod';

export const ProjectSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  organization: z.looseObject({ id: z.string(), name: z.string() }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  retentionDays: z.number().nullable().optional(),
});

export type Project = z.infer<typeof ProjectSchema>;

export const ProjectsResponseSchema = z.looseObject({ data: z.array(ProjectSchema) });

export const HealthSchema = z.looseObject({
  status: z.string(),
  version: z.string().optional(),
});

export type Health = z.infer<typeof HealthSchema>;
