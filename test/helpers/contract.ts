// Checks requests llmobs sends (and answers the local server gives) against the Langfuse contract:
// the OpenAPI schemas copied in test/fixtures (see scripts/extract-contract.mjs) plus the stricter
// rules the server's zod schemas enforce (API.md). Request objects are checked closed: a field the
// contract does not know (a misspelling such as `tokenizationConfig`) is an error, because the
// server would silently drop it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { updatedAtSchema } from '../../src/core/prompts/updated-at.js';
import { DATA_KEYS, dataRules } from './contract-data.js';

type Schema = Record<string, any>;

interface Parameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: Schema;
}

interface Operation {
  operationId: string;
  parameters: Parameter[];
  request?: Schema;
  /** Success statuses and their body schemas; null: no body. */
  responses: Record<string, Schema | null>;
}

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'langfuse-openapi-subset.json'), 'utf8')) as {
  operations: Record<string, Operation>;
  schemas: Record<string, Schema>;
};

// Langfuse 4.35 adds PUT /api/public/models/{id} with the body of POST /api/public/models.
fixture.operations['PUT /api/public/models/{id}'] = {
  operationId: 'models_put',
  parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
  request: { $ref: '#/components/schemas/CreateModelRequest' },
  responses: fixture.operations['POST /api/public/models']!.responses,
};

export interface ContractIssue {
  path: string;
  message: string;
}

export function findOperation(method: string, path: string): { key: string; operation: Operation; params: Record<string, string> } | undefined {
  for (const [key, operation] of Object.entries(fixture.operations)) {
    const [opMethod, template] = key.split(' ') as [string, string];
    if (opMethod !== method.toUpperCase()) continue;
    const names: string[] = [];
    const pattern = new RegExp(`^${template.replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = pattern.exec(path);
    if (match) return { key, operation, params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])) };
  }
  return undefined;
}

/** Everything wrong with a request, empty when a Langfuse server accepts it as meant. */
export function checkRequest(method: string, url: string, body: unknown): ContractIssue[] {
  const parsed = new URL(url, 'http://contract.local');
  const found = findOperation(method, parsed.pathname);
  if (!found) return [{ path: '(request)', message: `${method.toUpperCase()} ${parsed.pathname} is not an operation of the contract` }];
  const issues: ContractIssue[] = [];
  const { operation, params } = found;
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') validate(parameter.schema, coerce(parameter.schema, params[parameter.name]), `path.${parameter.name}`, true, issues);
  }
  const known = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const [name, value] of parsed.searchParams) {
    if (!known.has(name)) issues.push({ path: `query.${name}`, message: 'unknown query parameter' });
    else validate(operation.parameters.find((p) => p.name === name)!.schema, coerce(operation.parameters.find((p) => p.name === name)!.schema, value), `query.${name}`, true, issues);
  }
  if (operation.request) {
    if (body === undefined) issues.push({ path: 'body', message: 'a body is required' });
    else validate(operation.request, body, 'body', true, issues);
  } else if (body !== undefined) {
    issues.push({ path: 'body', message: 'this operation takes no body' });
  }
  issues.push(...serverRules(found.key, body as Record<string, any>, parsed.searchParams));
  return issues;
}

/** Checks a 2xx answer against the contract's response schema (unknown fields allowed); `undefined` is no body. */
export function checkResponse(method: string, path: string, status: number, body: unknown): ContractIssue[] {
  const found = findOperation(method, new URL(path, 'http://contract.local').pathname);
  if (!found) return [{ path: '(response)', message: `${method} ${path} is not an operation of the contract` }];
  const schema = found.operation.responses[String(status)];
  if (schema === undefined) return [{ path: '(response)', message: `status ${status} is not a documented success` }];
  if (schema === null) return body === undefined ? [] : [{ path: 'body', message: `status ${status} has no body` }];
  if (body === undefined) return [{ path: 'body', message: 'a body is expected' }];
  const issues: ContractIssue[] = [];
  validate(schema, body, 'body', false, issues);
  return issues;
}

// The rules the server enforces beyond the OpenAPI file (API.md sections 3.4, 4.4, 4.5).
function serverRules(key: string, body: Record<string, any> | undefined, query: URLSearchParams): ContractIssue[] {
  const issues: ContractIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  if ((key === 'POST /api/public/models' || key === 'PUT /api/public/models/{id}') && body) {
    if (body.unit === undefined || body.unit === null) add('body.unit', 'required by the server');
    if (body.tokenizerId != null && !['openai', 'claude'].includes(body.tokenizerId)) add('body.tokenizerId', 'the server accepts only openai or claude');
    const flat = ['inputPrice', 'outputPrice', 'totalPrice'].filter((field) => body[field] != null);
    const tiers = Array.isArray(body.pricingTiers) && body.pricingTiers.length > 0;
    if (flat.length && tiers) add('body', 'flat prices and pricingTiers cannot be combined');
    if (!flat.length && !tiers) add('body', 'needs flat prices or pricingTiers');
    if (body.totalPrice != null && (body.inputPrice || body.outputPrice)) add('body.totalPrice', 'cannot be combined with input or output price');
    for (const field of flat) if (typeof body[field] !== 'number' || body[field] < 0) add(`body.${field}`, 'must be a number >= 0');
    if (tiers) {
      const defaults = body.pricingTiers.filter((tier: any) => tier.isDefault);
      if (defaults.length !== 1) add('body.pricingTiers', 'exactly one default tier');
      const keys = JSON.stringify(Object.keys(defaults[0]?.prices ?? {}).sort());
      body.pricingTiers.forEach((tier: any, i: number) => {
        if (tier.isDefault && (tier.priority !== 0 || tier.conditions.length)) add(`body.pricingTiers.${i}`, 'the default tier has priority 0 and no conditions');
        if (!tier.isDefault && !tier.conditions.length) add(`body.pricingTiers.${i}`, 'a non-default tier needs a condition');
        if (JSON.stringify(Object.keys(tier.prices ?? {}).sort()) !== keys) add(`body.pricingTiers.${i}.prices`, 'every tier has the price keys of the default tier');
        if (!Object.keys(tier.prices ?? {}).length) add(`body.pricingTiers.${i}.prices`, 'at least one price');
      });
    }
  }
  if (key === 'POST /api/public/v2/prompts' && body) {
    if (Array.isArray(body.prompt) && body.type !== 'chat') add('body.type', 'a chat prompt must say type "chat"');
    if (Array.isArray(body.prompt)) {
      body.prompt.forEach((message: any, i: number) => {
        if (message && 'name' in message && !('role' in message) && message.type !== 'placeholder') add(`body.prompt.${i}.type`, 'a placeholder must carry type "placeholder"');
        if (message?.type === 'placeholder' && !/^[a-zA-Z][a-zA-Z0-9_]*$/.test(message.name ?? '')) add(`body.prompt.${i}.name`, 'invalid placeholder name');
      });
    }
    for (const [i, label] of (body.labels ?? []).entries()) {
      if (!/^[a-z0-9_\-.]{1,36}$/.test(label)) add(`body.labels.${i}`, `invalid label "${label}"`);
    }
    if (typeof body.commitMessage === 'string' && body.commitMessage.length > 500) add('body.commitMessage', 'at most 500 characters');
  }
  if (key === 'PATCH /api/public/v2/prompts/{name}/versions/{version}' && body) {
    if ((body.newLabels ?? []).includes('latest')) add('body.newLabels', '"latest" cannot be set');
  }
  if (key.startsWith('GET /api/public/v2/prompts/') && query.has('version') && query.has('label')) add('query', 'version and label together give 400');
  if (key === 'GET /api/public/v2/prompts') {
    // z.iso.datetime({ offset: true }): the OpenAPI file's date-time says less (API.md 4.3).
    for (const name of ['fromUpdatedAt', 'toUpdatedAt']) {
      const value = query.get(name);
      if (value !== null && !updatedAtSchema().safeParse(value).success) add(`query.${name}`, 'the server needs an ISO datetime with Z or an offset');
    }
  }
  if (DATA_KEYS.has(key)) return [...issues, ...dataRules(key, query)];
  for (const name of ['page', 'limit']) {
    const value = query.get(name);
    if (value !== null && (!/^\d+$/.test(value) || Number(value) < 1 || (name === 'limit' && Number(value) > 100))) add(`query.${name}`, 'out of range');
  }
  return issues;
}

function coerce(schema: Schema, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  const type = resolve(schema).type;
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  // A repeated parameter (environment=a&environment=b) arrives one value at a time.
  if (type === 'array') return [coerce(resolve(schema).items ?? {}, value)];
  return value;
}

function resolve(schema: Schema): Schema {
  let current = schema;
  while (current?.$ref) {
    const name = String(current.$ref).replace('#/components/schemas/', '');
    const target = fixture.schemas[name];
    if (!target) throw new Error(`contract fixture lacks schema ${name}`);
    // A $ref sibling `nullable: true` widens the referenced schema.
    current = current.nullable ? { ...target, nullable: true } : target;
  }
  return current;
}

function validate(raw: Schema, value: unknown, path: string, closed: boolean, issues: ContractIssue[]): void {
  const schema = resolve(raw);
  if (value === null) {
    if (schema.nullable || Object.keys(schema).filter((k) => !['description', 'title', 'nullable'].includes(k)).length === 0) return;
    issues.push({ path, message: 'must not be null' });
    return;
  }
  if (value === undefined) return;
  if (schema.oneOf || schema.anyOf) {
    const options = (schema.oneOf ?? schema.anyOf) as Schema[];
    const results = options.map((option) => {
      const found: ContractIssue[] = [];
      validate(option, value, path, closed, found);
      return found;
    });
    const passing = results.filter((found) => found.length === 0).length;
    if (schema.oneOf ? passing !== 1 : passing === 0) {
      const best = results.reduce((a, b) => (b.length < a.length ? b : a));
      issues.push({ path, message: passing > 1 ? 'matches more than one oneOf option' : `matches no option (closest: ${best.map((i) => `${i.path}: ${i.message}`).join('; ')})` });
    }
  }
  if (schema.allOf) {
    for (const part of schema.allOf as Schema[]) validate(part, value, path, false, issues);
  }
  if (schema.enum && !schema.enum.includes(value)) issues.push({ path, message: `must be one of ${schema.enum.join(', ')}` });
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') issues.push({ path, message: 'must be a string' });
      else if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) issues.push({ path, message: 'must be a date-time' });
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) issues.push({ path, message: 'must be a number' });
      break;
    case 'integer':
      if (!Number.isInteger(value)) issues.push({ path, message: 'must be an integer' });
      break;
    case 'boolean':
      if (typeof value !== 'boolean') issues.push({ path, message: 'must be a boolean' });
      break;
    case 'array':
      if (!Array.isArray(value)) issues.push({ path, message: 'must be an array' });
      else if (schema.items) value.forEach((item, i) => validate(schema.items, item, `${path}.${i}`, closed, issues));
      break;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        issues.push({ path, message: 'must be an object' });
        break;
      }
      const record = value as Record<string, unknown>;
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const name of schema.required ?? []) if (record[name] === undefined) issues.push({ path: `${path}.${name}`, message: 'required' });
      for (const [name, inner] of Object.entries(record)) {
        if (properties[name]) validate(properties[name], inner, `${path}.${name}`, closed, issues);
        else if (typeof schema.additionalProperties === 'object') validate(schema.additionalProperties, inner, `${path}.${name}`, closed, issues);
        else if (schema.additionalProperties === false || (closed && schema.additionalProperties === undefined && schema.properties)) {
          issues.push({ path: `${path}.${name}`, message: 'not a field of the contract (a server would drop it)' });
        }
      }
      break;
    }
  }
}
