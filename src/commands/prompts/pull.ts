// llmobs prompts pull: write prompts into a directory, one file per prompt.
import type { Prompt } from '../../api/schemas/prompts.js';
import type { PromptFileData } from '../../core/prompts/file-format.js';
import type { PromptSelector } from '../../core/prompts/selector.js';
import { ExitCode, NotFoundError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { resolve } from 'node:path';
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
  differs is kept (exit 9) unless --force. Pull then push sends nothing. The
  format is described in the README ("Prompts in git").`,
  examples: [
    'llmobs prompts pull',
    'llmobs prompts pull support/agent --label production --dir prompts',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { getPrompt, listAllPrompts, SYNC_READ_CONCURRENCY, serverVersionOf }, { mapLimit }, { promptFileStem, sameTags, sameVersionContent, serialisePromptFile }, { parseVersion, validateSelector }, { directoryExists, readPromptDirectory, writePromptFile }, { promptName }, { DEFAULT_PROMPT_DIR }, { maxOf }] = await Promise.all([import('zod'), import('../../api/prompts.js'), import('../../api/map-limit.js'), import('../../core/prompts/file-format.js'), import('../../core/prompts/selector.js'), import('../../io/prompt-dir.js'), import('./shared.js'), import('./sync-shared.js'), import('../../core/objects.js')]);
    const Options = z.object({
      names: z.array(z.string()).default([]),
      dir: z.string().min(1, 'must not be empty').default(DEFAULT_PROMPT_DIR),
      label: z.string().optional(),
      version: z.string().optional(),
      force: z.boolean().default(false),
    });

    type Outcome = 'written' | 'unchanged' | 'overwritten' | 'kept: differs' | 'skipped';

    interface Row {
      name: string;
      version: number | null;
      file: string;
      outcome: Outcome;
      reason?: string;
    }

    /** What a case-insensitive, normalising file system (macOS, Windows) sees of a name. */
    function fileKey(name: string): string {
      return name.normalize('NFC').toLowerCase();
    }

    const opts = parseOptions(Options, { ...given, names: args[0] ?? [] });
    if (opts.label !== undefined && opts.version !== undefined) throw new UsageError('give --label or --version, not both');
    const selector: PromptSelector =
      opts.version !== undefined ? { version: parseVersion(opts.version) } : opts.label !== undefined ? validateSelector({ label: opts.label }) : { label: 'latest' };
    const names = opts.names.map(promptName);

    const client = await ctx.api();
    // Without names: every prompt (with --label, only those that have the label: the list filters).
    let targets: Array<{ name: string; selector: PromptSelector }>;
    const skipped: Row[] = [];
    if (names.length > 0) {
      targets = names.map((name) => ({ name, selector }));
    } else {
      const metas = await listAllPrompts(client, opts.label !== undefined ? { label: opts.label } : {});
      targets = [];
      for (const meta of metas) {
        if (meta.versions.length === 0) continue;
        if ('version' in selector && !meta.versions.includes(selector.version)) {
          skipped.push({ name: meta.name, version: null, file: '', outcome: 'skipped', reason: `no version ${selector.version}` });
          continue;
        }
        // The latest version is the highest one; asking for it by number gives what status compares with.
        targets.push({ name: meta.name, selector: 'label' in selector && selector.label === 'latest' ? { version: maxOf(meta.versions) } : selector });
      }
    }

    const local = (await directoryExists(opts.dir, ctx.cwd)) ? await readPromptDirectory(opts.dir, ctx.cwd) : undefined;
    const localFiles = new Map((local?.files ?? []).map((file) => [file.name, file]));
    const progress = ctx.out.progress();
    let read = 0;
    const missing: string[] = [];
    const fetched = await mapLimit(targets, SYNC_READ_CONCURRENCY, async (target): Promise<Prompt | undefined> => {
      try {
        return await getPrompt(client, target.name, target.selector, { resolve: false });
      } catch (error) {
        if (error instanceof NotFoundError && names.length > 0) {
          missing.push(`${target.name}: ${error.message}`);
          return undefined;
        }
        throw error;
      } finally {
        progress.update(() => `Reading prompts: ${++read}/${targets.length}`);
      }
    });
    progress.clear();

    const rows: Row[] = [];
    const root = local?.root ?? resolve(ctx.cwd, opts.dir);
    // Names that differ only in case or Unicode form (Foo and foo) are one file on macOS and
    // Windows: writing both would silently overwrite one with the other there, and a later push
    // would give one prompt the other's content. Such prompts are not written.
    const namesByFile = new Map<string, Set<string>>();
    for (const name of [...fetched.flatMap((prompt) => (prompt ? [prompt.name] : [])), ...(local?.pathsByName.keys() ?? [])]) {
      namesByFile.set(fileKey(name), (namesByFile.get(fileKey(name)) ?? new Set()).add(name));
    }
    const collisions: string[] = [];
    for (const prompt of fetched) {
      if (!prompt) continue;
      const stem = promptFileStem(prompt.name);
      if (!stem.ok) {
        rows.push({ name: prompt.name, version: prompt.version, file: '', outcome: 'skipped', reason: stem.problem });
        continue;
      }
      const sameFile = [...(namesByFile.get(fileKey(prompt.name)) ?? [])].filter((name) => name !== prompt.name);
      if (sameFile.length > 0) {
        collisions.push(prompt.name);
        rows.push({ name: prompt.name, version: prompt.version, file: '', outcome: 'skipped', reason: `differs from ${sameFile.map((n) => `'${n}'`).join(', ')} only in case or Unicode form: one file on macOS and Windows` });
        continue;
      }
      const version = serverVersionOf(prompt);
      const mine = localFiles.get(prompt.name);
      // The labels a file wants are the repository's choice, not the server's: an overwrite keeps them.
      const data: PromptFileData = { content: version.content, config: version.config, labels: mine?.data.labels ?? [], ...(prompt.tags.length > 0 ? { tags: prompt.tags } : {}) };
      const file = serialisePromptFile(data);
      const target = `${stem.stem}.${file.extension}`;
      const existing = local?.pathsByName.get(prompt.name) ?? [];
      const shown = `${opts.dir.replace(/\/+$/, '')}/${target}`;
      if (existing.length > 1) {
        rows.push({ name: prompt.name, version: prompt.version, file: existing.join(', '), outcome: 'kept: differs', reason: 'several files give this prompt' });
        continue;
      }
      if (existing.length === 1 && mine && sameVersionContent(mine.data, version) && (mine.data.tags === undefined || sameTags(mine.data.tags, prompt.tags))) {
        rows.push({ name: prompt.name, version: prompt.version, file: `${opts.dir.replace(/\/+$/, '')}/${existing[0]}`, outcome: 'unchanged' });
        continue;
      }
      if (existing.length === 1 && !opts.force) {
        rows.push({ name: prompt.name, version: prompt.version, file: `${opts.dir.replace(/\/+$/, '')}/${existing[0]}`, outcome: 'kept: differs' });
        continue;
      }
      await writePromptFile(root, stem.stem, file.extension, file.text, existing[0]);
      rows.push({ name: prompt.name, version: prompt.version, file: shown, outcome: existing.length === 1 ? 'overwritten' : 'written' });
    }
    rows.push(...skipped);

    if (ctx.globals.json) {
      ctx.out.printJson({ dir: opts.dir, prompts: rows });
    } else {
      ctx.out.table([{ header: 'NAME' }, { header: 'VERSION', align: 'right' }, { header: 'FILE' }, { header: 'RESULT' }], rows.map((r) => [r.name, r.version, r.file, r.reason ? `${r.outcome} (${r.reason})` : r.outcome]));
    }
    const count = (outcome: Outcome) => rows.filter((row) => row.outcome === outcome).length;
    const kept = count('kept: differs');
    ctx.out.info(`Pulled ${rows.length - count('skipped')} prompt${rows.length === 1 ? '' : 's'} into ${opts.dir}: ${count('written')} written, ${count('overwritten')} overwritten, ${count('unchanged')} unchanged${kept ? `, ${kept} kept` : ''}.`);
    if (missing.length > 0) {
      throw new NotFoundError(`${missing.length === 1 ? 'a prompt was' : `${missing.length} prompts were`} not found:\n  ${missing.join('\n  ')}`, { status: 404 });
    }
    if (collisions.length > 0) {
      ctx.out.warn(
        `not written: ${collisions.map((n) => `'${n}'`).join(', ')}, whose names differ from others only in case or Unicode form; on macOS and Windows they would share one file. Rename one of each pair on the server (a new prompt, then delete the old) to keep both in git.`,
      );
    }
    if (kept > 0) {
      ctx.out.warn(`${kept} local file${kept === 1 ? ' differs' : 's differ'} from the server and ${kept === 1 ? 'was' : 'were'} not overwritten. See the differences with: llmobs prompts status --dir ${opts.dir}; overwrite with --force.`);
      ctx.exitCode = ExitCode.precondition;
    }
  },
});
