// Wire shape of GET /api/public/v2/metrics (openapi.yml MetricsV2Response): rows of dimension
// values and `<aggregation>_<measure>` numbers, which may arrive as numeric strings.
import { z } from 'zod';

export const MetricsResponseSchema = z.looseObject({
  data: z.array(z.record(z.string(), z.unknown())),
});

export type MetricsResponse = z.infer<typeof MetricsResponseSchema>;
