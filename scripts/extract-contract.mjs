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
  const responses = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const schema = response.content?.['application/json']?.schema;
    if (status.startsWith('2') && schema) responses[status] = schema;
  }
  operations[`${method.toUpperCase()} ${path}`] = { operationId: operation.operationId, parameters, request, responses };
  collectRefs([parameters, request, responses]);
}

const schemas = Object.fromEntries([...needed].sort().map((name) => [name, spec.components.schemas[name]]));
const fixture = {
  source: 'langfuse/langfuse web/public/generated/api/openapi.yml (server 4.16.0, commit 62751446149b702b419a9292ddfc2280cdf74b8c), MIT licence, Langfuse GmbH',
  extractedBy: 'scripts/extract-contract.mjs',
  operations,
  schemas,
};
writeFileSync(join(root, 'test', 'fixtures', 'langfuse-openapi-subset.json'), `${JSON.stringify(fixture, null, 1)}\n`);
console.log(`wrote test/fixtures/langfuse-openapi-subset.json: ${Object.keys(operations).length} operations, ${needed.size} schemas`);
