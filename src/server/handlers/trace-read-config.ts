// GET /api/trpc/public.traceReadConfig: the one procedure of Langfuse's web app (tRPC) that this
// server answers, because it is where Langfuse tells anyone its write mode, without a key
// (web/src/server/api/routers/public.ts; the web app reads it to pick its trace views). The answer
// is tRPC's with the superjson transformer; `batch=1` wraps it in an array, as tRPC's batch link
// expects.
import { TRACE_READ_CONFIG_PATH } from '../../api/write-mode.js';
import type { Handler, Route } from '../http/router.js';

const traceReadConfig: Handler = (request, _tx, { writeMode }) => {
  const result = { result: { data: { json: { v4WriteMode: writeMode } } } };
  return { status: 200, body: request.query.get('batch') === '1' ? [result] : result };
};

export const traceReadConfigRoutes: Route[] = [
  {
    pattern: new RegExp(`^${TRACE_READ_CONFIG_PATH.replaceAll('.', '\\.')}$`),
    auth: 'none',
    methodNotAllowedClass: true,
    methods: { GET: traceReadConfig },
  },
];
