// POST /api/llmobs/ui-link: a new one-time link to the web UI, for a second browser (or the same
// one once its cookie is gone) without restarting the server; `llmobs server link` asks for it.
// Not a Langfuse route: llmobs server's own, under a prefix of its own. It takes the project's
// key as every project route does, and that key reads and changes all the UI shows already.
import type { Route } from '../http/router.js';

export const UI_LINK_PATH = '/api/llmobs/ui-link';

export const uiLinkRoutes: Route[] = [
  {
    pattern: /^\/api\/llmobs\/ui-link$/,
    auth: 'project',
    methods: {
      POST: (_request, _tx, { uiLink }) =>
        uiLink ? { status: 200, body: { url: uiLink() } } : { status: 404, body: { message: 'This server runs without its web UI (it was started with --no-ui).' } },
    },
  },
];
