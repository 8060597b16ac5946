// Wire shape of GET /api/public/v2/observations (openapi.yml ObservationsV2Response): a page of
// observations and `meta.cursor`, absent on the last page. Only what paging and the tree need is
// checked; every other field is kept as the server sent it.
import { z } from 'zod';

export const ObservationV2Schema = z.looseObject({
  id: z.string(),
  traceId: z.string().nullish(),
  startTime: z.string().nullish(),
  type: z.string().nullish(),
  parentObservationId: z.string().nullish(),
});

export const ObservationsV2PageSchema = z.looseObject({
  data: z.array(ObservationV2Schema),
  meta: z.looseObject({ cursor: z.string().nullish() }),
});
