// What `models lint` reports: each custom definition's problems (the checks of `models create`,
// and prices far from any real model's), and the definitions that never win because others hide
// them. One finding per problem, the same for a models file and for the project's definitions.
import { checkDefinitionInput, checkPriceMagnitudes } from './checks.js';
import type { DefinitionIssue } from './issues.js';
import type { ShadowFinding } from './shadowing.js';
import type { ModelDefinition } from './types.js';

export interface Finding {
  id: string | null;
  modelName: string | null;
  severity: DefinitionIssue['severity'];
  code: string;
  path: string | null;
  message: string;
}

function finding(id: string | null, modelName: string | null, issue: DefinitionIssue): Finding {
  return { id, modelName, severity: issue.severity, code: issue.code, path: issue.path ?? null, message: issue.message };
}

function withMagnitudes(definition: ModelDefinition, issues: DefinitionIssue[]): DefinitionIssue[] {
  const tiers = definition.pricingTiers;
  const draft = { unit: definition.unit ?? 'TOKENS', prices: tiers.length ? {} : Object.fromEntries(Object.entries(definition.prices).map(([k, v]) => [k, v.price])), pricingTiers: tiers.length ? tiers : null };
  return [...issues, ...checkPriceMagnitudes(draft)];
}

function nameOf(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  const name = record['modelName'] ?? record['name'];
  return typeof name === 'string' ? name : null;
}

/**
 * The findings of one entry of a models file (src/model-definitions/models-file.ts reads them):
 * `index` is its 0-based position, which names an entry without a name; `definition` is absent
 * when the entry has errors.
 */
export function entryFindings(entry: { index: number; raw: unknown; definition: ModelDefinition | undefined; issues: DefinitionIssue[] }): Finding[] {
  const name = entry.definition?.modelName ?? nameOf(entry.raw);
  const issues = entry.definition ? withMagnitudes(entry.definition, entry.issues) : entry.issues;
  return issues.map((i) => finding(entry.definition?.id ?? null, name ?? `definition ${entry.index + 1}`, i));
}

/** The findings of a definition the server stores. */
export function storedDefinitionFindings(definition: ModelDefinition): Finding[] {
  // Fields and kinds of condition a newer server adds are not mistakes, but the conditions cannot be checked.
  const issues = checkDefinitionInput(definition)
    .issues.filter((i) => i.code !== 'unknown-field')
    .map((i): DefinitionIssue => (i.code === 'tier-condition-unknown' ? { ...i, severity: 'warning' } : i));
  return withMagnitudes(definition, issues).map((i) => finding(definition.id, definition.modelName, i));
}

/** A definition that never wins (see shadowing.ts) as a warning; none for one that can. */
export function shadowFindings(f: ShadowFinding): Finding[] {
  const name = (d: ModelDefinition) => `"${d.modelName}" (${d.id})`;
  const proof = f.method === 'exhaustive' ? '' : ` (on every name tested; ${f.note})`;
  const report = (code: string, message: string) => [finding(f.definition.id, f.definition.modelName, { severity: 'warning', code, message, path: 'matchPattern' })];
  switch (f.status) {
    case 'shadowed':
      return report('shadowed', `Never wins: ${f.hiddenBy.map(name).join(', ')} also match${f.hiddenBy.length === 1 ? 'es' : ''} every name it matches and come${f.hiddenBy.length === 1 ? 's' : ''} first${proof}.`);
    case 'never-wins':
      return report('never-wins', `Never wins: on every name it matches another definition comes first (${f.beatenBy.map(name).join(', ')})${proof}.`);
    case 'tie-only':
      return report('tie-only', `Never wins outright: it only ties with ${f.beatenBy.map(name).join(', ')}, and the server's choice between tied definitions is undefined${proof}.`);
    default:
      return [];
  }
}
