// llmobs prompts copy: copy prompts to another project or region: labelled versions and the latest, with labels, config, tags and commit messages.
import type { ResolvedConfig } from '../../config/resolve.js';
import { CliError, NotFoundError, UsageError } from '../../errors.js';
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
    const [{ z }, { promptIndex }, { readCopyDestinations, readCopySources, writeCopyStep }, { planCopy }, { validateLabel }, { printCopyPlan }, { promptName }, { shellQuote }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../api/prompt-copy.js'), import('../../core/prompts/copy-plan.js'), import('../../core/prompts/label.js'), import('./copy-report.js'), import('./shared.js'), import('../../core/shell-quote.js')]);
    const opts = parseOptions(
      z.object({
        names: z.array(z.string()).default([]),
        all: z.boolean().default(false),
        toProfile: z.string({ message: 'is required: the profile of the destination project, e.g. --to-profile us-prod' }).min(1),
        fromProfile: z.string().min(1).optional(),
        label: z.array(z.string()).default([]),
        allVersions: z.boolean().default(false),
        dryRun: z.boolean().default(false),
      }),
      { ...given, names: args[0] ?? [] },
    );
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
      throw new NotFoundError(`not in the source project (${describeProject(sourceConfig)}): ${missing.map((n) => `'${n}'`).join(', ')}; nothing was sent`, {
        hint: 'Names are case-sensitive and include their folders. List them with: llmobs prompts list --all',
      });
    }
    const selected = names.length > 0 ? names.map((name) => sourceIndex.get(name)!) : [...sourceIndex.values()];
    const sources = await readCopySources(source, selected, { allVersions: opts.allVersions, labels: opts.label.length > 0 ? opts.label : undefined }, (done, total) =>
      progress.update(() => `Reading the source: ${done}/${total}`),
    );
    // With --label, a prompt that has none of the labels has nothing to copy: skipped with --all,
    // not found when it was named.
    const empty = sources.filter((s) => s.versions.length === 0);
    const labelled = `labelled ${opts.label.join(' or ')}`;
    if (empty.length > 0 && names.length > 0) {
      throw new NotFoundError(`no version ${labelled} in the source project (${describeProject(sourceConfig)}): ${empty.map((s) => `'${s.name}'`).join(', ')}; nothing was sent`, {
        hint: `See their labels with: llmobs labels list ${opts.fromProfile ? `--profile ${shellQuote(opts.fromProfile)} ` : ''}${shellQuote(empty[0]!.name)}`,
      });
    }
    if (empty.length > 0) ctx.out.info(`Skipped (no version ${labelled}): ${empty.map((s) => s.name).join(', ')}`);
    const copies = sources.filter((s) => s.versions.length > 0);
    const destinations = await readCopyDestinations(destination, destinationIndex, copies, opts.allVersions, (done, total) =>
      progress.update(() => `Reading the destination: ${done}/${total}`),
    );
    progress.clear();

    const plan = planCopy(copies, destinations);
    if (plan.refused.length > 0) {
      const lines = plan.refused.flatMap((r) => r.problems.map((p) => `  ${r.name}: ${p}`));
      throw new UsageError(`${plan.refused.length === 1 ? '1 prompt cannot' : `${plan.refused.length} prompts cannot`} be copied; nothing was sent:\n${lines.join('\n')}`, { details: plan.refused });
    }
    const steps = plan.prompts.flatMap((p) => p.steps);
    const where = `${describeProject(sourceConfig)} → ${describeProject(destinationConfig)}`;

    if (opts.dryRun) {
      printCopyPlan(ctx, plan, opts.allVersions, true);
      ctx.out.info(`Dry run (${where}): ${steps.length} write${steps.length === 1 ? '' : 's'} planned; nothing was sent.`);
      return;
    }
    let done = 0;
    destination.onRetryWait = (wait) => ctx.out.info(`${wait.reason}: waiting ${Math.max(1, Math.round(wait.delayMs / 1000))} s (${done}/${steps.length} written)`);
    for (const step of steps) {
      try {
        await writeCopyStep(destination, step);
        done++;
        ctx.out.info(`[${done}/${steps.length}] ${step.name} v${step.sourceVersion}: ${step.kind === 'create' ? `created as v${step.expectVersion}` : `${step.labels.join(', ')} moved to v${step.version}`}`);
      } catch (error) {
        ctx.out.warn(`copy stopped at '${step.name}' version ${step.sourceVersion}: ${done} of ${steps.length} writes done, ${steps.length - done} not done.`);
        if (error instanceof CliError) error.hint = [error.hint, 'Run the same copy again to finish: what was copied matches by content and is not sent again.'].filter(Boolean).join('\n');
        throw error;
      }
    }
    printCopyPlan(ctx, plan, opts.allVersions, false);
    const nothing = copies.length > 0 ? 'the destination already has every version' : opts.label.length > 0 ? `no prompt has a version ${labelled}` : 'the source project has no prompts';
    ctx.out.success(steps.length === 0 ? `Nothing to copy (${where}): ${nothing}.` : `Copied (${where}): ${steps.length} write${steps.length === 1 ? '' : 's'}.`);
  },
});

/** Two settings reach the same project when they name the same server with the same key. */
function sameProject(a: ResolvedConfig, b: ResolvedConfig): boolean {
  const key = (config: ResolvedConfig) => (config.auth.type === 'basic' ? config.auth.publicKey : config.auth.type === 'bearer' ? 'bearer' : '');
  return a.baseUrl === b.baseUrl && key(a) === key(b);
}

/** A project as messages name it: its profile, else its server. */
function describeProject(config: ResolvedConfig): string {
  return config.profile ? `profile ${config.profile.name}` : new URL(config.baseUrl).host;
}
