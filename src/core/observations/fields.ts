// The field groups of GET /api/public/v2/observations and the fields each brings (openapi.yml,
// ObservationV2). `--fields` takes groups, field names, or dotted paths into a field
// (usageDetails.input): llmobs requests the groups they need and, when names are given, writes
// exactly those columns in that order.

export const FIELD_GROUPS = {
  core: ['id', 'traceId', 'startTime', 'endTime', 'projectId', 'parentObservationId', 'type'],
  basic: ['name', 'level', 'statusMessage', 'version', 'environment', 'bookmarked', 'public', 'userId', 'sessionId', 'isRootObservation'],
  time: ['completionStartTime', 'createdAt', 'updatedAt'],
  io: ['input', 'output'],
  metadata: ['metadata'],
  // modelId and the prices are filled only when the model group is requested.
  model: ['providedModelName', 'internalModelId', 'modelParameters', 'modelId', 'inputPrice', 'outputPrice', 'totalPrice'],
  usage: ['usageDetails', 'costDetails', 'totalCost', 'usagePricingTierName'],
  prompt: ['promptId', 'promptName', 'promptVersion'],
  metrics: ['latency', 'timeToFirstToken'],
  trace_context: ['traceName', 'tags', 'release'],
} as const satisfies Record<string, readonly string[]>;

export type FieldGroup = keyof typeof FIELD_GROUPS;

export const GROUP_NAMES = Object.keys(FIELD_GROUPS) as FieldGroup[];

const GROUP_OF = new Map<string, FieldGroup>();
for (const group of GROUP_NAMES) for (const field of FIELD_GROUPS[group]) GROUP_OF.set(field, group);

export interface FieldSelection {
  /** The groups to request, in the documented order; `core` always. */
  groups: FieldGroup[];
  /** The columns to write, or null to write each observation whole. */
  columns: string[] | null;
}

export type FieldParse = { ok: true; selection: FieldSelection } | { ok: false; message: string };

/** Reads a `--fields` list (comma-separated, repeatable); `fallback` when nothing is given. */
export function parseFields(items: readonly string[] | undefined, fallback: readonly FieldGroup[]): FieldParse {
  // `--fields "$FIELDS"` with an empty variable would otherwise quietly mean every default field.
  if (items?.some((item) => item.replace(/,/g, '').trim() === '')) {
    return { ok: false, message: `empty: give groups (${GROUP_NAMES.join(', ')}) or fields, or leave the option out for the default` };
  }
  const names = (items ?? []).flatMap((item) => item.split(',')).map((s) => s.trim()).filter(Boolean);
  const wanted = new Set<FieldGroup>(['core']);
  if (names.length === 0) {
    for (const group of fallback) wanted.add(group);
    return { ok: true, selection: { groups: GROUP_NAMES.filter((g) => wanted.has(g)), columns: null } };
  }
  const columns: string[] = [];
  let projected = false;
  for (const name of names) {
    if (name in FIELD_GROUPS) {
      wanted.add(name as FieldGroup);
      columns.push(...FIELD_GROUPS[name as FieldGroup]);
      continue;
    }
    const root = name.split('.')[0]!;
    const group = GROUP_OF.get(root);
    if (!group || name.split('.').some((part) => part === '')) {
      return { ok: false, message: `unknown field "${name}": use a group (${GROUP_NAMES.join(', ')}), a field of one (such as providedModelName or totalCost), or a path into one (usageDetails.input)` };
    }
    wanted.add(group);
    columns.push(name);
    projected = true;
  }
  const unique = [...new Set(columns)];
  return { ok: true, selection: { groups: GROUP_NAMES.filter((g) => wanted.has(g)), columns: projected ? unique : null } };
}

/** Every column of the requested groups, in the documented order (for CSV without names). */
export function groupColumns(groups: readonly FieldGroup[]): string[] {
  return groups.flatMap((group) => FIELD_GROUPS[group]);
}

/** The value at a dotted path (`usageDetails.input`), or undefined. */
export function valueAt(item: unknown, path: string): unknown {
  if (!path.includes('.')) return (item as Record<string, unknown> | null)?.[path];
  let current: unknown = item;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A new object with only the given columns (dotted paths become flat keys), in their order. */
export function project(item: unknown, columns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = valueAt(item, column);
    out[column] = value === undefined ? null : value;
  }
  return out;
}
