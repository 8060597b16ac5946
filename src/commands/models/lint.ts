// llmobs models lint: check every custom definition: patterns, tokenizer, prices, and definitions that never win because others hide them.
import type { Context } from '../../context.js';
import type { DefinitionIssue } from '../../core/models/issues.js';
import type { FileDefinition } from '../../model-definitions/models-file.js';
import type { ModelDefinition } from '../../core/models/types.js';
import type { ShadowFinding } from '../../core/models/shadowing.js';
import { PreconditionError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'lint',
  summary: 'check every custom definition: patterns, tokenizer, prices, and definitions that never win because others hide them',
  flags: [
    { flags: '--offline', help: 'check the definitions in --models-file instead of the profile\'s' },
    { flags: '--models-file <file>', help: 'with --offline: the definitions to check (JSON or YAML)' },
    { flags: '--strict', help: 'exit 9 on warnings too (default: on errors only)' },
  ],
  examples: [
    'llmobs models lint',
    'llmobs models lint --strict',
    'llmobs models lint --offline --models-file models.yaml',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { checkDefinitionInput, checkPriceMagnitudes }, { analyzeShadowing }, { readModelsFile }, { loadRemoteDefinitions }] = await Promise.all([import('zod'), import('../../core/models/checks.js'), import('../../core/models/shadowing.js'), import('../../model-definitions/models-file.js'), import('../../model-definitions/remote.js')]);
    const Options = z.object({
      offline: z.boolean().default(false),
      modelsFile: z.string().optional(),
      strict: z.boolean().default(false),
    });

    interface Finding {
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

    function entryFindings(entry: FileDefinition): Finding[] {
      const name = entry.definition?.modelName ?? nameOf(entry.raw);
      const issues = entry.definition ? withMagnitudes(entry.definition, entry.issues) : entry.issues;
      return issues.map((i) => finding(entry.definition?.id ?? null, name ?? `definition ${entry.index + 1}`, i));
    }

    function nameOf(raw: unknown): string | null {
      if (typeof raw !== 'object' || raw === null) return null;
      const record = raw as Record<string, unknown>;
      const name = record['modelName'] ?? record['name'];
      return typeof name === 'string' ? name : null;
    }

    function shadowFinding(f: ShadowFinding): Finding[] {
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

    function print(ctx: Context, findings: Finding[]): void {
      if (findings.length === 0) return;
      if (!ctx.out.isTTY) {
        ctx.out.table(
          [{ header: 'NAME' }, { header: 'ID' }, { header: 'LEVEL' }, { header: 'CODE' }, { header: 'FIELD' }, { header: 'MESSAGE' }],
          findings.map((f) => [f.modelName, f.id, f.severity, f.code, f.path, f.message]),
        );
        return;
      }
      const groups = new Map<string, Finding[]>();
      for (const f of findings) {
        const key = `${f.modelName ?? ''}${f.id ? ` (${f.id})` : ''}`;
        groups.set(key, [...(groups.get(key) ?? []), f]);
      }
      for (const [title, group] of groups) {
        ctx.out.heading(title);
        for (const f of group) {
          const level = f.severity === 'error' ? ctx.out.c.red('error  ') : ctx.out.c.yellow('warning');
          ctx.out.line(`  ${level}  ${f.message} ${ctx.out.c.dim(`[${f.code}]`)}`);
        }
      }
    }

    const opts = parseOptions(Options, given);
    if (opts.modelsFile !== undefined && !opts.offline) {
      throw new UsageError('--models-file works with --offline; otherwise lint checks the profile\'s definitions', { hint: 'Add --offline to check the file.' });
    }
    if (opts.offline && opts.modelsFile === undefined) {
      throw new UsageError('--offline checks the definitions in --models-file; pass one', { hint: 'For example: llmobs models lint --offline --models-file models.yaml' });
    }

    const findings: Finding[] = [];
    let definitions: ModelDefinition[];
    let checked: number;
    if (opts.offline) {
      const entries = (await readModelsFile(ctx, opts.modelsFile!)).filter((e) => e.definition?.isLangfuseManaged !== true);
      checked = entries.length;
      for (const entry of entries) findings.push(...entryFindings(entry));
      definitions = entries.flatMap((e) => (e.definition ? [e.definition] : []));
    } else {
      definitions = (await loadRemoteDefinitions(ctx)).definitions.filter((d) => !d.isLangfuseManaged);
      checked = definitions.length;
      for (const definition of definitions) {
        // Fields and kinds of condition a newer server adds are not mistakes, but the conditions cannot be checked.
        const issues = checkDefinitionInput(definition)
          .issues.filter((i) => i.code !== 'unknown-field')
          .map((i): DefinitionIssue => (i.code === 'tier-condition-unknown' ? { ...i, severity: 'warning' } : i));
        findings.push(...withMagnitudes(definition, issues).map((i) => finding(definition.id, definition.modelName, i)));
      }
    }
    findings.push(...analyzeShadowing(definitions).flatMap(shadowFinding));

    const errors = findings.filter((f) => f.severity === 'error').length;
    const warnings = findings.length - errors;
    if (ctx.globals.json) ctx.out.printJson({ checked, errors, warnings, findings });
    else print(ctx, findings);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const summary = `${plural(checked, 'custom definition')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
    if (errors > 0 || (opts.strict && warnings > 0)) throw new PreconditionError(summary, { hint: errors > 0 ? undefined : 'Warnings fail the check because of --strict.' });
    ctx.out.info(summary);
  },
});
