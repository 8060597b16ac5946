#!/usr/bin/env node
// Copies the part of Langfuse's generated OpenAPI file that llmobs talks to into a test fixture,
// so contract tests run without the original file. Usage:
//   node scripts/extract-contract.mjs [path/to/openapi.yml]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2] ?? join(root, '..', 'shared', 'langfuse', 'openapi.yml');
const spec = YAML.parse(readFileSync(source, 'utf8'), { maxAliasCount: -1 });

const OPERATIONS = [
  ['get', '/api/public/health'],
  ['get', '/api/public/projects'],
  ['get', '/api/public/models'],
  ['post', '/api/public/models'],
  ['get', '/api/public/models/{id}'],
  ['delete', '/api/public/models/{id}'],
  ['get', '/api/public/v2/prompts'],
  ['post', '/api/public/v2/prompts'],
  ['get', '/api/public/v2/prompts/{promptName}'],
  ['delete', '/api/public/v2/prompts/{promptName}'],
  ['patch', '/api/public/v2/prompts/{name}/versions/{version}'],
  ['post', '/api/public/ingestion'],
  ['post', '/api/public/otel/v1/traces'],
  ['get', '/api/public/traces'],
  ['get', '/api/public/traces/{traceId}'],
  ['delete', '/api/public/traces/{traceId}'],
  ['delete', '/api/public/traces'],
  ['get', '/api/public/observations'],
  ['get', '/api/public/observations/{observationId}'],
  ['get', '/api/public/v2/observations'],
  ['get', '/api/public/v2/metrics'],
  ['post', '/api/public/scores'],
  ['get', '/api/public/metrics'],
  ['get', '/api/public/v3/scores'],
];

// Where the server answers otherwise than the OpenAPI file says, the fixture follows the server
// (the real API wins) and records the correction with its source.
// `responses` receives the file's success responses and returns the server's.
const CORRECTIONS = [
  {
    operation: 'DELETE /api/public/models/{id}',
    responses: () => ({ 200: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }),
    reason: 'The OpenAPI file says 204 without a body; the server answers 200 {"message":"Model successfully deleted"} (API.md 3.5, checked in the server code and its tests).',
  },
  {
    operation: 'POST /api/public/v2/prompts',
    responses: (file) => ({ 201: file['200'] }),
    reason: 'The OpenAPI file says 200; the server answers 201 with the created row (API.md 4.4).',
  },
];

const operations = {};
const needed = new Set();
const collectRefs = (value) => {
  if (Array.isArray(value)) return value.forEach(collectRefs);
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') {
        const name = inner.replace('#/components/schemas/', '');
        if (!needed.has(name)) {
          needed.add(name);
          collectRefs(spec.components.schemas[name]);
        }
      } else collectRefs(inner);
    }
  }
};

for (const [method, path] of OPERATIONS) {
  const operation = spec.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in ${source}`);
  const parameters = (operation.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required ?? false, schema: p.schema ?? {} }));
  const request = operation.requestBody?.content?.['application/json']?.schema;
  // Each success status with its body schema; null: the answer has no body (e.g. 204).
  let responses = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (status.startsWith('2')) responses[status] = response.content?.['application/json']?.schema ?? null;
  }
  const key = `${method.toUpperCase()} ${path}`;
  const correction = CORRECTIONS.find((c) => c.operation === key);
  if (correction) responses = correction.responses(responses);
  operations[key] = { operationId: operation.operationId, parameters, request, responses };
  collectRefs([parameters, request, responses]);
}
const unused = CORRECTIONS.filter((c) => !operations[c.operation]);
if (unused.length) throw new Error(`corrections for operations not extracted: ${unused.map((c) => c.operation).join(', ')}`);

const schemas = Object.fromEntries([...needed].sort().map((name) => [name, spec.components.schemas[name]]));
const fixture = {
  source: 'langfuse/langfuse web/public/generated/api/openapi.yml (server 4.16.0, commit 62751446149b702b419a9292ddfc2280cdf74b8c), MIT licence, Langfuse GmbH',
  extractedBy: 'scripts/extract-contract.mjs',
  corrections: CORRECTIONS.map(({ operation, reason }) => ({ operation, reason })),
  operations,
  schemas,
};
writeFileSync(join(root, 'test', 'fixtures', 'langfuse-openapi-subset.json'), `${JSON.stringify(fixture, null, 1)}\n`);
console.log(`wrote test/fixtures/langfuse-openapi-subset.json: ${Object.keys(operations).length} operations, ${needed.size} schemas`);
