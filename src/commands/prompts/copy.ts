// llmobs prompts copy: copy prompts to another project or region: labelled versions and the latest, with labels, config, tags and commit messages.
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { CopyDestination, CopyPlan, CopySource, CopyStep } from '../../core/prompts/copy-plan.js';
import type { PromptMeta } from '../../api/schemas/prompts.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import { CliError, NotFoundError, PreconditionError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'copy',
  summary: 'copy prompts to another project or region: labelled versions and the latest, with labels, config, tags and commit messages',
  args: [
    { name: '[names...]', help: 'prompts to copy' },
  ],
  flags: [
    { flags: '--all', help: 'every prompt of the source project' },
    { flags: '--to-profile <profile>', help: 'the destination: this profile\'s server and keys (required)' },
    { flags: '--from-profile <profile>', help: 'the source (default: the usual settings: flags, environment, active profile)' },
    { flags: '-l, --label <label>', help: 'copy only the versions with this label (repeatable; latest means the latest version)', repeatable: true },
    { flags: '--all-versions', help: 'every version in order; prints which destination version each source version became' },
    { flags: '--dry-run', help: 'print the plan and send nothing' },
  ],
  notes: `
  Versions are matched by content (type, prompt, config), not by number: a
  second copy sends nothing.
  Prompts referenced by others are copied first; a reference to a version number
  of a copied prompt is rewritten to that version's number in the destination.
  References are never resolved.`,
  examples: [
    'llmobs prompts copy --all --to-profile us-prod --dry-run',
    'llmobs prompts copy support/agent --from-profile eu-staging --to-profile eu-prod --label production',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { mapLimit }, { addLabels, createPrompt, promptIndex, readLabelledVersions, SYNC_READ_CONCURRENCY }, { planCopy }, { validateLabel }, { promptName }, { maxOf }] = await Promise.all([import('zod'), import('../../api/map-limit.js'), import('../../api/prompts.js'), import('../../core/prompts/copy-plan.js'), import('../../core/prompts/label.js'), import('./shared.js'), import('../../core/objects.js')]);
    const Options = z.object({
      names: z.array(z.string()).default([]),
      all: z.boolean().default(false),
      toProfile: z.string({ message: 'is required: the profile of the destination project, e.g. --to-profile us-prod' }).min(1),
      fromProfile: z.string().min(1).optional(),
      label: z.array(z.string()).default([]),
      allVersions: z.boolean().default(false),
      dryRun: z.boolean().default(false),
    });

    async function execute(client: ApiClient, step: CopyStep): Promise<void> {
      if (step.kind === 'move-labels') {
        await addLabels(client, step.name, step.version, step.labels);
        return;
      }
      const created = await createPrompt(client, step.body);
      if (created.version !== step.expectVersion) {
        throw new PreconditionError(`'${step.name}' version ${step.sourceVersion} was created as version ${created.version}, not ${step.expectVersion}: the destination changed during the copy`, {
          hint: 'Check the destination; references by version number in later prompts may need the new number.',
        });
      }
    }

    function report(ctx: Context, plan: CopyPlan, opts: { allVersions: boolean }, dryRun: boolean): void {
      if (ctx.globals.json) {
        ctx.out.printJson({
          dryRun,
          prompts: plan.prompts.map((p) => ({ name: p.name, mapping: p.mapping, steps: p.steps.map((s) => (s.kind === 'create' ? { kind: s.kind, sourceVersion: s.sourceVersion, version: s.expectVersion, labels: s.body.labels } : s)) })),
        });
        return;
      }
      const rows = plan.prompts.map((p) => {
        const creates = p.steps.filter((s) => s.kind === 'create').length;
        const moves = p.steps.filter((s) => s.kind === 'move-labels').length;
        const what = creates + moves === 0 ? 'unchanged' : [creates ? `${creates} version${creates === 1 ? '' : 's'}` : '', moves ? `${moves} label move${moves === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
        const mapping = p.mapping.map((m) => `${m.source}→${m.destination}${m.created ? (dryRun ? ' (new)' : ' (created)') : ''}`).join(', ');
        return opts.allVersions ? [p.name, what, mapping] : [p.name, what];
      });
      ctx.out.table(opts.allVersions ? [{ header: 'NAME' }, { header: dryRun ? 'WOULD WRITE' : 'WRITTEN' }, { header: 'VERSIONS (SOURCE→DESTINATION)' }] : [{ header: 'NAME' }, { header: dryRun ? 'WOULD WRITE' : 'WRITTEN' }], rows);
    }

    /** A named profile's settings; an unknown name is reported with the option that gave it. */
    function destinationOf(meta: PromptMeta, known: CopyDestination['known']): CopyDestination {
      return { name: meta.name, type: meta.type, versions: meta.versions, labels: meta.labels, tags: meta.tags, known };
    }

    function sameProject(a: ResolvedConfig, b: ResolvedConfig): boolean {
      const key = (config: ResolvedConfig) => (config.auth.type === 'basic' ? config.auth.publicKey : config.auth.type === 'bearer' ? 'bearer' : '');
      return a.baseUrl === b.baseUrl && key(a) === key(b);
    }

    function describe(config: ResolvedConfig): string {
      return config.profile ? `profile ${config.profile.name}` : new URL(config.baseUrl).host;
    }

    const opts = parseOptions(Options, { ...given, names: args[0] ?? [] });
    if (opts.all === (opts.names.length > 0)) throw new UsageError('give the prompts to copy, or --all for every prompt');
    if (opts.allVersions && opts.label.length > 0) throw new UsageError('give --label or --all-versions, not both');
    for (const label of opts.label) if (label !== 'latest') validateLabel(label);
    const names = opts.names.map(promptName);

    const sourceConfig = opts.fromProfile ? await ctx.resolveConfig({ auth: true, profile: opts.fromProfile, profileFlag: '--from-profile' }) : await ctx.resolveConfig({ auth: true });
    const destinationConfig = await ctx.resolveConfig({ auth: true, profile: opts.toProfile, profileFlag: '--to-profile', wholeProfile: true });
    if (sameProject(sourceConfig, destinationConfig)) {
      throw new UsageError(`the source and the destination are the same project (${destinationConfig.baseUrl} with the same key)`, {
        hint: 'Copy to another project: --to-profile names the destination; the source is --from-profile, or the usual settings.',
      });
    }
    const source = await ctx.apiFor(sourceConfig);
    const destination = await ctx.apiFor(destinationConfig);

    const progress = ctx.out.progress();
    const [sourceIndex, destinationIndex] = await Promise.all([promptIndex(source), promptIndex(destination)]);
    const missing = names.filter((name) => !sourceIndex.has(name));
    if (missing.length > 0) {
      throw new NotFoundError(`not in the source project (${describe(sourceConfig)}): ${missing.map((n) => `'${n}'`).join(', ')}; nothing was sent`, {
        hint: 'Names are case-sensitive and include their folders. List them with: llmobs prompts list --all',
      });
    }
    const selected = names.length > 0 ? names.map((name) => sourceIndex.get(name)!) : [...sourceIndex.values()];
    const onlyLabels = opts.label.length > 0 ? opts.label : undefined;

    let read = 0;
    const sources = await mapLimit(selected, SYNC_READ_CONCURRENCY, async (meta): Promise<CopySource> => {
      const versions = await readLabelledVersions(source, meta, { all: opts.allVersions, labels: onlyLabels });
      progress.update(() => `Reading the source: ${++read}/${selected.length}`);
      return { name: meta.name, type: meta.type, tags: meta.tags, allVersions: meta.versions, versions, latestVersion: maxOf(meta.versions), onlyLabels };
    });
    // With --label, a prompt that has none of the labels has nothing to copy: skipped with --all,
    // not found when it was named.
    const empty = sources.filter((s) => s.versions.length === 0);
    const labelled = `labelled ${opts.label.join(' or ')}`;
    if (empty.length > 0 && names.length > 0) {
      throw new NotFoundError(`no version ${labelled} in the source project (${describe(sourceConfig)}): ${empty.map((s) => `'${s.name}'`).join(', ')}; nothing was sent`, {
        hint: `See their labels with: llmobs labels list ${empty[0]!.name}`,
      });
    }
    if (empty.length > 0) ctx.out.info(`Skipped (no version ${labelled}): ${empty.map((s) => s.name).join(', ')}`);
    const copies = sources.filter((s) => s.versions.length > 0);
    const present = copies.filter((s) => destinationIndex.get(s.name));
    const destinations = new Map<string, CopyDestination>();
    read = 0;
    await mapLimit(present, SYNC_READ_CONCURRENCY, async (copy) => {
      const meta = destinationIndex.get(copy.name)!;
      if (meta.type !== copy.type) {
        destinations.set(copy.name, destinationOf(meta, []));
        return;
      }
      const wanted = [...new Set(copy.versions.flatMap((v) => v.labels))].filter((label) => meta.labels.includes(label));
      const known = await readLabelledVersions(destination, meta, { all: opts.allVersions, labels: opts.allVersions ? undefined : ['latest', ...wanted] });
      destinations.set(copy.name, destinationOf(meta, known));
      progress.update(() => `Reading the destination: ${++read}/${present.length}`);
    });
    // Prompts the copied ones reference but that are not copied are checked against the destination too.
    for (const meta of destinationIndex.values()) if (!destinations.has(meta.name)) destinations.set(meta.name, destinationOf(meta, []));
    progress.clear();

    const plan = planCopy(copies, destinations);
    if (plan.refused.length > 0) {
      const lines = plan.refused.flatMap((r) => r.problems.map((p) => `  ${r.name}: ${p}`));
      throw new UsageError(`${plan.refused.length === 1 ? '1 prompt cannot' : `${plan.refused.length} prompts cannot`} be copied; nothing was sent:\n${lines.join('\n')}`, { details: plan.refused });
    }
    const steps = plan.prompts.flatMap((p) => p.steps);
    const where = `${describe(sourceConfig)} → ${describe(destinationConfig)}`;

    if (opts.dryRun) {
      report(ctx, plan, opts, true);
      ctx.out.info(`Dry run (${where}): ${steps.length} write${steps.length === 1 ? '' : 's'} planned; nothing was sent.`);
      return;
    }
    const done: CopyStep[] = [];
    destination.onRetryWait = (wait) => ctx.out.info(`${wait.reason}: waiting ${Math.max(1, Math.round(wait.delayMs / 1000))} s (${done.length}/${steps.length} written)`);
    for (const step of steps) {
      try {
        await execute(destination, step);
        done.push(step);
        ctx.out.info(`[${done.length}/${steps.length}] ${step.name} v${step.sourceVersion}: ${step.kind === 'create' ? `created as v${step.expectVersion}` : `${step.labels.join(', ')} moved to v${step.version}`}`);
      } catch (error) {
        const rest = steps.length - done.length;
        ctx.out.warn(`copy stopped at '${step.name}' version ${step.sourceVersion}: ${done.length} of ${steps.length} writes done, ${rest} not done.`);
        if (error instanceof CliError) error.hint = [error.hint, 'Run the same copy again to finish: what was copied matches by content and is not sent again.'].filter(Boolean).join('\n');
        throw error;
      }
    }
    report(ctx, plan, opts, false);
    const nothing = copies.length > 0 ? 'the destination already has every version' : opts.label.length > 0 ? `no prompt has a version ${labelled}` : 'the source project has no prompts';
    ctx.out.success(steps.length === 0 ? `Nothing to copy (${where}): ${nothing}.` : `Copied (${where}): ${steps.length} write${steps.length === 1 ? '' : 's'}.`);
  },
});
