// llmobs models lint: check every custom definition: patterns, tokenizer, prices, and definitions that never win because others hide them.
import type { Finding } from '../../core/models/lint.js';
import type { ModelDefinition } from '../../core/models/types.js';
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
    const [{ z }, { countOf }, { entryFindings, shadowFindings, storedDefinitionFindings }, { analyzeShadowing }, { readModelsFile }, { loadRemoteDefinitions }, { printFindings }] = await Promise.all([import('zod'), import('../../output/format.js'), import('../../core/models/lint.js'), import('../../core/models/shadowing.js'), import('../../model-definitions/models-file.js'), import('../../model-definitions/remote.js'), import('./render.js')]);
    const opts = parseOptions(z.object({ offline: z.boolean().default(false), modelsFile: z.string().optional(), strict: z.boolean().default(false) }), given);
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
      findings.push(...entries.flatMap(entryFindings));
      definitions = entries.flatMap((e) => (e.definition ? [e.definition] : []));
      checked = entries.length;
    } else {
      definitions = (await loadRemoteDefinitions(ctx)).definitions.filter((d) => !d.isLangfuseManaged);
      findings.push(...definitions.flatMap(storedDefinitionFindings));
      checked = definitions.length;
    }
    findings.push(...analyzeShadowing(definitions).flatMap(shadowFindings));

    const errors = findings.filter((f) => f.severity === 'error').length;
    const warnings = findings.length - errors;
    if (ctx.globals.json) ctx.out.printJson({ checked, errors, warnings, findings });
    else printFindings(ctx, findings);
    const summary = `${countOf(checked, 'custom definition')} checked: ${countOf(errors, 'error')}, ${countOf(warnings, 'warning')}`;
    if (errors > 0 || (opts.strict && warnings > 0)) throw new PreconditionError(summary, { hint: errors > 0 ? undefined : 'Warnings fail the check because of --strict.' });
    ctx.out.info(summary);
  },
});
