import type { Route } from '../router.js';

export const projectRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/projects$/,
    auth: 'projects',
    methodNotAllowedClass: false,
    methods: {
      GET: (_request, { store }) => {
        const { project } = store.state;
        return {
          status: 200,
          body: {
            data: [{ id: project.id, name: project.name, organization: project.organization, metadata: project.metadata }],
          },
        };
      },
    },
  },
];
