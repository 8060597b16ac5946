import type { Route } from '../http/router.js';

/** The Langfuse API level this server implements (PUT /api/public/models arrived in 4.35.0). */
export const API_VERSION = '4.35.0';

export const healthRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/health$/,
    auth: 'none',
    methodNotAllowedClass: true,
    methods: { GET: (_request, _tx, { apiVersion }) => ({ status: 200, body: { status: 'OK', version: apiVersion } }) },
  },
  {
    pattern: /^\/api\/public\/ready$/,
    auth: 'none',
    methodNotAllowedClass: true,
    methods: { GET: (_request, _tx, { apiVersion }) => ({ status: 200, body: { status: 'OK', version: apiVersion } }) },
  },
];
