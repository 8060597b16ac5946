// llmobs prompts pull: write prompts into a directory, one file per prompt.
import type { PullOutcome } from '../../core/prompts/pull-plan.js';
import type { PromptSelector } from '../../core/prompts/selector.js';
import { ExitCode, NotFoundError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'pull',
  summary: 'write prompts into a directory, one file per prompt (the name is the path): text as .md, chat as .yaml',
  args: [
    { name: '[names...]', help: 'prompts to pull (default: every prompt of the project)' },
  ],
  flags: [
    { flags: '--dir <dir>', help: 'directory of prompt files', default: 'prompts' },
    { flags: '--label <label>', help: 'the version that carries this label (default: the latest version); without names, only prompts that have it' },
    { flags: '--version <n>', help: 'a version number' },
    { flags: '--force', help: 'overwrite local files that differ from the server' },
  ],
  notes: `
  References to other prompts are written as they are stored
  (@@@langfusePrompt:...@@@), never resolved.
  A file that already says what the server has is left as it is; one that
  differs is kept (exit 9) unless --force. A prompt whose name cannot be a file
  here ('..', '../x', a backslash, or a name that differs from another only in
  case or Unicode form) is set aside: the others are written, stderr says which
  and why, and pull exits 9. The directory is created when missing, even when
  the project has no prompts yet. Pull then push sends nothing. The format is
  described in docs/prompts-in-git.md.`,
  examples: [
    'llmobs prompts pull',
    'llmobs prompts pull support/agent --label production --dir prompts',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { listAllPrompts, serverVersionOf }, { readPullVersions }, { planPull, pullTargets, setAsideUnwritable }, { parseVersion, validateSelector }, { createPromptDirectory, PromptPathError, readPromptDirectoryIfAny, writePromptFile }, { promptName }, { SyncOptions }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../api/prompt-pull.js'), import('../../core/prompts/pull-plan.js'), import('../../core/prompts/selector.js'), import('../../io/prompt-dir.js'), import('./shared.js'), import('./sync-shared.js')]);
    // The label here is one (the version to pull), not the list status and push take.
    const opts = parseOptions(SyncOptions.extend({ label: z.string().optional(), version: z.string().optional(), force: z.boolean().default(false) }), { ...given, names: args[0] ?? [] });
    if (opts.label !== undefined && opts.version !== undefined) throw new UsageError('give --label or --version, not both');
    const selector: PromptSelector =
      opts.version !== undefined ? { version: parseVersion(opts.version) } : opts.label !== undefined ? validateSelector({ label: opts.label }) : { label: 'latest' };
    const names = opts.names.map(promptName);

    const client = await ctx.api();
    // Without names: every prompt (with --label, only those that have the label: the list filters).
    const listed =
      names.length > 0 ? { targets: names.map((name) => ({ name, selector })), skipped: [] } : pullTargets(await listAllPrompts(client, opts.label !== undefined ? { label: opts.label } : {}), selector);
    // Names that cannot be files are set aside unread; the others are read and written.
    const { targets, setAside } = setAsideUnwritable(listed.targets);
    const local = await readPromptDirectoryIfAny(opts.dir, ctx.cwd);
    const progress = ctx.out.progress();
    const { prompts, missing } = await readPullVersions(client, targets, { collectMissing: names.length > 0 }, (done, total) => progress.update(() => `Reading prompts: ${done}/${total}`));
    progress.clear();

    const plan = planPull({
      prompts: prompts.map((prompt) => ({ name: prompt.name, tags: prompt.tags, version: serverVersionOf(prompt) })),
      files: local.files,
      pathsByName: local.pathsByName,
      dir: opts.dir,
      force: opts.force,
    });
    // An empty project still gets its directory, so that status and push work on it at once.
    const created = await createPromptDirectory(opts.dir, ctx.cwd);
    const rows = [...plan.rows, ...listed.skipped, ...setAside];
    for (const write of plan.writes) {
      try {
        await writePromptFile(local.root, write.stem, write.extension, write.text, write.replaces);
      } catch (error) {
        // A folder on the way that is a link out of the directory, or a file where a folder should be.
        if (!(error instanceof PromptPathError)) throw error;
        const row = rows.find((r) => r.name === write.name);
        if (row) Object.assign(row, { file: '', outcome: 'set aside', reason: error.message });
      }
    }

    if (ctx.globals.json) {
      ctx.out.printJson({ dir: opts.dir, prompts: rows });
    } else if (rows.length > 0) {
      ctx.out.table([{ header: 'NAME' }, { header: 'VERSION', align: 'right' }, { header: 'FILE' }, { header: 'RESULT' }], rows.map((r) => [r.name, r.version, r.file, r.reason ? `${r.outcome} (${r.reason})` : r.outcome]));
    }
    const count = (outcome: PullOutcome) => rows.filter((row) => row.outcome === outcome).length;
    const kept = count('kept: differs');
    const asideRows = rows.filter((row) => row.outcome === 'set aside');
    const pulled = rows.length - count('skipped') - asideRows.length;
    if (created) ctx.out.info(`Created ${opts.dir}.`);
    ctx.out.info(
      `Pulled ${pulled} prompt${pulled === 1 ? '' : 's'} into ${opts.dir}: ${count('written')} written, ${count('overwritten')} overwritten, ${count('unchanged')} unchanged${kept ? `, ${kept} kept` : ''}${asideRows.length ? `, ${asideRows.length} set aside` : ''}.`,
    );
    if (asideRows.length > 0) {
      ctx.out.warn(
        `${asideRows.length === 1 ? '1 prompt was' : `${asideRows.length} prompts were`} set aside, not written: ${asideRows.length === 1 ? 'its name' : 'their names'} cannot be files in ${opts.dir}:\n${asideRows.map((row) => `  '${row.name}': ${row.reason}`).join('\n')}\nRename ${asideRows.length === 1 ? 'it' : 'them'} on the server (create the prompt under a new name, then delete the old one) to keep ${asideRows.length === 1 ? 'it' : 'them'} in git.`,
      );
      ctx.exitCode = ExitCode.precondition;
    }
    if (missing.length > 0) {
      throw new NotFoundError(`${missing.length === 1 ? 'a prompt was' : `${missing.length} prompts were`} not found:\n  ${missing.join('\n  ')}`, { status: 404 });
    }
    if (kept > 0) {
      ctx.out.warn(`${kept} local file${kept === 1 ? ' differs' : 's differ'} from the server and ${kept === 1 ? 'was' : 'were'} not overwritten. See the differences with: llmobs prompts status --dir ${opts.dir}; overwrite with --force.`);
      ctx.exitCode = ExitCode.precondition;
    }
  },
});
