// Model definitions (API.md section 3, PUT from NEWER-API.md): the project's own definitions plus
// the built-in catalogue, served as Langfuse-managed ones.
import { randomUUID } from 'node:crypto';
import { compareVersions, MODEL_PUT_SINCE } from '../../api/langfuse-version.js';
import type { ModelDefinition, PricingTier } from '../../core/models/types.js';
import { flatPricesFromTiers, pricesFromTiers } from '../../core/models/types.js';
import { builtInDefinitions } from '../../data/catalogue.js';
import { invalidRequest, methodNotAllowed, notFound } from '../http/errors.js';
import type { Route, ServerReply } from '../http/router.js';
import type { ModelRecord } from '../records.js';
import type { Tx } from '../store/index.js';
import { type ModelBody, parseModelBody } from './model-body.js';
import { pageMeta, paginate, parsePagination } from './query.js';
import { compareListOrder } from '../../core/models/list-page.js';

const NOT_FOUND = 'No model with this id found.';
const BUILT_IN_DELETE = `${NOT_FOUND} Note: You cannot delete built-in models, override them with a model with the same name.`;

/** The API's model object for a stored definition; prices come from the default tier, as on the server. */
export function modelResponse(record: ModelRecord): ModelDefinition {
  const fromTiers = flatPricesFromTiers(record.pricingTiers);
  return {
    id: record.id,
    modelName: record.modelName,
    matchPattern: record.matchPattern,
    startDate: record.startDate,
    unit: record.unit,
    inputPrice: fromTiers.inputPrice ?? record.inputPrice,
    outputPrice: fromTiers.outputPrice ?? record.outputPrice,
    totalPrice: fromTiers.totalPrice ?? record.totalPrice,
    tokenizerId: record.tokenizerId,
    tokenizerConfig: record.tokenizerConfig,
    isLangfuseManaged: false,
    createdAt: record.createdAt,
    prices: pricesFromTiers(record.pricingTiers),
    pricingTiers: [...record.pricingTiers].sort((a, b) => a.priority - b.priority),
  };
}

// The definitions are kept per store until one is written (ModelStore.changes): ingestion, the
// list and the web UI's matching read them on every request, and a project may have thousands.
// Filled only by reads and by ingestion, which write no definition: never from a transaction whose
// own model writes could still be rolled back. After a write, the definitions of the texts that
// did not change are taken over: only what was written is parsed again.
interface Kept {
  changes: number;
  definitions: readonly ModelDefinition[];
  listed?: readonly ModelDefinition[];
  byText: ReadonlyMap<string, ModelDefinition>;
}
const kept = new WeakMap<Tx['models'], Kept>();

function keptDefinitions(tx: Tx): Kept {
  const entry = kept.get(tx.models);
  if (entry?.changes === tx.models.changes) return entry;
  const byText = new Map<string, ModelDefinition>();
  const own = tx.models.allTexts((text, record) => {
    const definition = entry?.byText.get(text) ?? modelResponse(record());
    byText.set(text, definition);
    return definition;
  });
  const fresh: Kept = { changes: tx.models.changes, definitions: [...own, ...builtInDefinitions()], byText };
  kept.set(tx.models, fresh);
  return fresh;
}

/**
 * Every definition the project sees (its own first), in the shape src/core matches against: the
 * same array while the definitions are unchanged (matching and tokenizer resolution are cached
 * per array). Callers must not change it.
 */
export function projectDefinitions(tx: Tx): readonly ModelDefinition[] {
  return keptDefinitions(tx).definitions;
}

/** `projectDefinitions` in the list's order. */
function listedDefinitions(tx: Tx): readonly ModelDefinition[] {
  const entry = keptDefinitions(tx);
  return (entry.listed ??= [...entry.definitions].sort(compareListOrder));
}

function tiersFor(id: string, body: ModelBody): PricingTier[] {
  if (body.pricingTiers) {
    return body.pricingTiers.map((tier) => ({ id: tier.isDefault ? `${id}_tier_default` : randomUUID(), ...tier, prices: { ...tier.prices } }));
  }
  // Flat prices become the default tier, with a price row for each one given.
  const prices: Record<string, number> = {};
  if (body.inputPrice != null) prices.input = body.inputPrice;
  if (body.outputPrice != null) prices.output = body.outputPrice;
  if (body.totalPrice != null) prices.total = body.totalPrice;
  return [{ id: `${id}_tier_default`, name: 'Standard', isDefault: true, priority: 0, conditions: [], prices }];
}

function toRecord(id: string, projectId: string, body: ModelBody, createdAt: string, updatedAt: string): ModelRecord {
  return {
    id,
    projectId,
    modelName: body.modelName,
    matchPattern: body.matchPattern,
    startDate: body.startDate,
    unit: body.unit,
    inputPrice: body.pricingTiers ? null : body.inputPrice,
    outputPrice: body.pricingTiers ? null : body.outputPrice,
    totalPrice: body.pricingTiers ? null : body.totalPrice,
    tokenizerId: body.tokenizerId,
    tokenizerConfig: body.tokenizerConfig,
    createdAt,
    updatedAt,
    pricingTiers: tiersFor(id, body),
  };
}

function assertNameFree(tx: Tx, modelName: string, exceptId?: string): void {
  const holder = tx.models.named(modelName);
  if (holder && holder.id !== exceptId) {
    throw invalidRequest(`Model name '${modelName}' already exists in project`);
  }
}

const isBuiltIn = (id: string) => builtInDefinitions().some((d) => d.id === id);

export const modelRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/models$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: {
      GET: (request, tx) => {
        const pagination = parsePagination(request.query);
        const all = listedDefinitions(tx);
        return { status: 200, body: { data: paginate(all, pagination), meta: pageMeta(pagination, all.length) } };
      },
      POST: (request, tx, { now }): ServerReply => {
        const body = parseModelBody(request.body);
        assertNameFree(tx, body.modelName);
        const at = now().toISOString();
        const created = toRecord(randomUUID(), tx.project.get()!.id, body, at, at);
        tx.models.put(created);
        return { status: 200, body: modelResponse(created) };
      },
    },
  },
  {
    pattern: /^\/api\/public\/models\/([^/]+)$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: {
      GET: (request, tx) => {
        const id = request.params[0]!;
        const own = tx.models.get(id);
        if (own) return { status: 200, body: modelResponse(own) };
        const builtIn = builtInDefinitions().find((d) => d.id === id);
        if (builtIn) return { status: 200, body: builtIn };
        throw notFound(NOT_FOUND);
      },
      PUT: (request, tx, { now, apiVersion }): ServerReply => {
        if (compareVersions(apiVersion, MODEL_PUT_SINCE) < 0) throw methodNotAllowed(true);
        const id = request.params[0]!;
        if (isBuiltIn(id)) throw invalidRequest('Built-in models cannot be modified. Override them with a model with the same name.');
        const body = parseModelBody(request.body);
        assertNameFree(tx, body.modelName, id);
        const at = now().toISOString();
        const existing = tx.models.get(id);
        const replaced = toRecord(id, tx.project.get()!.id, body, existing?.createdAt ?? at, at);
        tx.models.put(replaced);
        return { status: 200, body: modelResponse(replaced) };
      },
      DELETE: (request, tx): ServerReply => {
        if (!tx.models.delete(request.params[0]!)) throw notFound(BUILT_IN_DELETE);
        return { status: 200, body: { message: 'Model successfully deleted' } };
      },
    },
  },
];
