// CORS as every public route of the service answers it (the `cors` middleware with
// `origin: true`): the request's Origin is reflected on every answer, and a preflight (OPTIONS)
// gets 204 with the allowed methods and the requested headers, before method and auth checks.
import type { IncomingHttpHeaders } from 'node:http';

const ALLOWED_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** Headers for any answer of a known route. */
export function corsHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const origin = headers.origin;
  return { ...(origin ? { 'access-control-allow-origin': origin } : {}), vary: 'Origin' };
}

/** Headers of the 204 answer to a preflight. */
export function preflightHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const requested = headers['access-control-request-headers'];
  return {
    ...corsHeaders(headers),
    'access-control-allow-methods': ALLOWED_METHODS,
    vary: 'Origin, Access-Control-Request-Headers',
    ...(requested ? { 'access-control-allow-headers': requested } : {}),
    'content-length': '0',
  };
}
