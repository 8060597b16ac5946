// GET /api/public/projects (API.md section 2), and the refusal of POST to project keys: creating
// projects needs an organization key, which this server has none of.
import { HttpError } from '../http/errors.js';
import type { Route } from '../http/router.js';

export const projectRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/projects$/,
    auth: 'projects',
    allowScoresKey: true,
    methodNotAllowedClass: false,
    methods: {
      GET: (request, tx) => {
        if (request.accessLevel !== 'project') throw new HttpError(403, { message: 'Invalid API key. Are you using an organization key?' });
        const project = tx.project.get()!;
        return {
          status: 200,
          body: { data: [{ id: project.id, name: project.name, organization: project.organization, metadata: project.metadata ?? {} }] },
        };
      },
      POST: () => {
        throw new HttpError(403, { message: 'Invalid API key. Organization-scoped API key required for this operation.' });
      },
    },
  },
];
