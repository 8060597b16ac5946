// A small in-memory stand-in for the model endpoints behind a recording MockAgent, for unit tests
// that look at exactly what the CLI sends. The real behaviour is tested against the local server.
import { checkDefinitionInput } from '../../src/core/models/checks.js';
import { draftToDefinition } from '../../src/core/models/draft.js';
import type { ModelDefinition } from '../../src/core/models/types.js';
import { isolatedEnv } from './cli.js';
import { type Recorded, recordingAgent } from './recorder.js';

export const ORIGIN = 'https://models.test';

export interface FakeOptions {
  definitions?: ModelDefinition[];
  /** Health version; PUT answers 405 below 4.35. */
  version?: string | null;
  /** Makes POST fail with this status once (after a delete, to test the restore path). */
  failCreate?: number;
  /** Overrides what the version implies: false answers PUT with 405. */
  put?: boolean;
  /** DELETE removes the model but answers 404, as a retried DELETE does after a lost answer. */
  deleteLost?: boolean;
}

export function fakeModelsApi(options: FakeOptions = {}) {
  const definitions = [...(options.definitions ?? [])];
  let failCreate = options.failCreate;
  let counter = 0;
  const version = options.version === undefined ? '4.35.0' : options.version;
  const putSupported = options.put ?? (version === null || Number(version.split('.')[1]) >= 35 || Number(version.split('.')[0]) > 4);
  const notFound = { status: 404, body: { message: 'No model with this id found.', error: 'LangfuseNotFoundError' } };

  const create = (body: unknown, id: string, createdAt = '2026-01-01T00:00:00.000Z') => {
    const { draft, issues } = checkDefinitionInput(body);
    if (!draft) return { error: { status: 400, body: { message: 'Invalid request data', error: issues } } };
    return { definition: draftToDefinition(draft, { id, createdAt }) };
  };

  const respond = (request: Recorded) => {
    const url = new URL(request.path, ORIGIN);
    const path = url.pathname;
    if (path === '/api/public/health') return version === null ? { status: 404, body: { message: 'not found' } } : { status: 200, body: { status: 'OK', version } };
    if (path === '/api/public/models' && request.method === 'GET') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const data = definitions.slice((page - 1) * limit, page * limit);
      return { status: 200, body: { data, meta: { page, limit, totalItems: definitions.length, totalPages: Math.ceil(definitions.length / limit) } } };
    }
    if (path === '/api/public/models' && request.method === 'POST') {
      if (failCreate) {
        const status = failCreate;
        failCreate = undefined;
        return { status, body: { message: 'Internal Server Error', error: 'boom' } };
      }
      const made = create(request.body, `new-${++counter}`);
      if (made.error) return made.error;
      definitions.unshift(made.definition);
      return { status: 200, body: made.definition };
    }
    const one = /^\/api\/public\/models\/([^/]+)$/.exec(path);
    if (one) {
      const id = decodeURIComponent(one[1]!);
      const index = definitions.findIndex((d) => d.id === id);
      if (request.method === 'GET') return index >= 0 ? { status: 200, body: definitions[index] } : notFound;
      if (request.method === 'DELETE') {
        if (index < 0 || definitions[index]!.isLangfuseManaged) return notFound;
        definitions.splice(index, 1);
        return options.deleteLost ? notFound : { status: 200, body: { message: 'Model successfully deleted' } };
      }
      if (request.method === 'PUT') {
        if (!putSupported) return { status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } };
        const made = create(request.body, id, definitions[index]?.createdAt ?? undefined);
        if (made.error) return made.error;
        if (index >= 0) definitions[index] = made.definition;
        else definitions.push(made.definition);
        return { status: 200, body: made.definition };
      }
    }
    return { status: 404, body: { message: `Route not found: ${request.method} ${path}` } };
  };

  const { agent, requests } = recordingAgent(ORIGIN, respond);
  const env = isolatedEnv({ LANGFUSE_HOST: ORIGIN, LANGFUSE_PUBLIC_KEY: 'pk-lf-test-0001', LANGFUSE_SECRET_KEY: 'sk-lf-test-0001' });
  return { agent, requests, definitions, env };
}
