import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { verb } from '../register.js';
import { collect } from '../options.js';
import { addPagingFlags } from '../paging-flags.js';
import { examples, helpText } from '../examples.js';

const VERSION_HELP = 'a version number';
const LABEL_HELP = 'the version that carries this label';

export function registerPrompts(program: Command, ctx: Context): void {
  const prompts = program
    .command('prompts')
    .alias('prompt')
    .description('manage prompts: create versions, fetch, list, compile, diff and delete; keep them in git with pull, status and push; copy them between projects. Names may contain folders (team/app/summary)');
  examples(prompts, "llmobs prompts create support/greeting --text 'Hello {{name}}' --label staging", 'llmobs prompts get support/greeting --label staging', 'llmobs prompts diff support/greeting production staging');

  verb(prompts, 'create', () => {
    const create = prompts
      .command('create')
      .description('create a prompt, or a new version of an existing one; prints the version number and its labels')
      .argument('<name>', 'prompt name')
      .option('--text <text>', 'text prompt content')
      .option('--file <file>', 'text prompt content from a file (- for stdin); one final line break is dropped')
      .option('--chat-file <file>', 'chat messages from a JSON or YAML file (- for stdin): [{role, content}, {type: placeholder, name}]')
      .addOption(new Option('--type <type>', 'prompt type (default: chat for --chat-file, inferred from the content on stdin, else text)').choices(['text', 'chat']))
      .option('-l, --label <label>', 'label for the new version (repeatable); it moves from whichever version had it', collect)
      .option('--config <json>', 'config as JSON, e.g. \'{"model":"gpt-4o","temperature":0}\'')
      .option('--config-file <file>', 'config from a JSON or YAML file')
      .option('-m, --commit-message <message>', 'what changed in this version (at most 500 characters)')
      .option('--tag <tag>', 'tag (repeatable). Tags apply to every version of the prompt: giving any replaces them on all versions; giving none keeps the current ones', collect)
      .option('--clear-tags', 'remove every tag from every version of the prompt')
      .option('--dry-run', 'check everything and print the request body; send nothing')
      .addHelpText('after', helpText(`
  Content comes from exactly one of --text, --file, --chat-file, or stdin when none is given.
  Everything is checked before anything is sent (exit 2): the name, labels (lowercase letters,
  digits, _ - . and at most 36 characters; 'latest' is set by the server), the commit message, chat
  messages, and that a chat prompt does not use one name for a variable and a placeholder.
  A create is never repeated after a failure, except when the server answers that it collided with
  concurrent creates of the same prompt (nothing was created): then it is tried again, up to --retries.`))
      .action(lazy(ctx, () => import('./create.js')));
    examples(
      create,
      "llmobs prompts create support/greeting --text 'Hello {{name}}' --label staging",
      "llmobs prompts create support/agent --chat-file agent.yaml --config-file model.json -m 'shorter answers'",
      'cat prompt.txt | llmobs prompts create summary --label production --tag team-a',
    );
  });

  verb(prompts, 'get', () => {
    const get = prompts
      .command('get')
      .description('show one version: without --version or --label, the one labelled production (the server\'s default)')
      .argument('<name>', 'prompt name')
      .option('--version <n>', VERSION_HELP)
      .option('--label <label>', LABEL_HELP)
      .option('--raw', 'print only the content: the text, or the chat messages as JSON')
      .option('--no-resolve', 'the stored content, with references to other prompts left unresolved')
      .addHelpText('after', helpText(`
  References to other prompts (@@@langfusePrompt:name=NAME|label=LABEL@@@ or |version=N) are replaced
  by those prompts' text, as they are labelled now; References lists the versions used.
  --json prints the API object (content, type, version, labels, tags, config, commit message, dates,
  and resolutionGraph: the versions each reference used, or null).
  --raw prints the content exactly as stored when piped, and ends it with a line break on a terminal.`))
      .action(lazy(ctx, () => import('./get.js')));
    examples(
      get,
      'llmobs prompts get support/agent',
      'llmobs prompts get support/agent --label staging --raw > agent.txt',
      "llmobs prompts get support/agent --version 3 --jq '.config.model'",
    );
  });

  verb(prompts, 'list', () => {
    const list = prompts
      .command('list')
      .alias('ls')
      .description('list prompts with their versions, labels and tags (the server pages by 10 unless told)')
      .option('--name <name>', 'only this prompt (exact name)')
      .option('--label <label>', 'only versions with this label')
      .option('--tag <tag>', 'only prompts with this tag')
      .option('--from-updated-at <datetime>', 'only versions updated at or after this time (ISO 8601 with Z or an offset, e.g. 2026-05-01T00:00:00Z)')
      .option('--to-updated-at <datetime>', 'only versions updated before this time (same format)');
    addPagingFlags(list, { noun: 'prompts', serverDefault: 10 })
      .addHelpText('after', helpText(`
  Filters apply to each version: with --label production, VERSIONS shows only the version that has it,
  and with --from-updated-at only the versions updated since then.
  --json prints {"data": [...], "meta": {page, limit, totalItems, totalPages}}, the same shape with
  --limit and --all (meta is the server's, of the first page read).`))
      .action(lazy(ctx, () => import('./list.js')));
    examples(
      list,
      'llmobs prompts list',
      'llmobs prompts ls --label production --limit 50',
      "llmobs prompts list --all --jq '.data[].name'",
      'llmobs prompts list --tag team-a --csv > prompts.csv',
    );
  });

  verb(prompts, 'versions', () => {
    const versions = prompts
      .command('versions')
      .description('every version, newest first, with its labels, date and commit message')
      .argument('<name>', 'prompt name')
      .option('--limit <n>', 'print at most n versions, the newest (default: all)')
      .addHelpText('after', helpText(`
  Cost: the API lists a prompt's version numbers but not their details, so this sends one request
  for the list and one per version shown (4 at a time). --limit keeps that down for long histories.`))
      .action(lazy(ctx, () => import('./versions.js')));
    examples(versions, 'llmobs prompts versions support/agent', 'llmobs prompts versions support/agent --limit 5 --json');
  });

  verb(prompts, 'compile', () => {
    const compile = prompts
      .command('compile')
      .description('fill in a version\'s variables and placeholders exactly as the official SDKs\' compile() does')
      .argument('<name>', 'prompt name')
      .option('--version <n>', VERSION_HELP)
      .option('--label <label>', LABEL_HELP)
      .option('--var <key=value>', 'variable value, a string (repeatable; wins over --vars-file)', collect)
      .option('--vars-file <file>', 'variables from a JSON or YAML object (values may be lists or objects for sections)')
      .option('--placeholder <name=@file>', 'messages for a placeholder: @file (JSON or YAML list of {role, content}, @- for stdin) or inline JSON (repeatable)', collect)
      .option('--strict', 'fail (exit 2) if a variable or placeholder is missing, or a given one is unused')
      .addHelpText('after', helpText(`
  Mustache without HTML escaping: a missing variable renders as nothing. A placeholder given a list
  of messages is replaced by them, an empty list drops it, and one not given stays in the output as
  {"type": "placeholder", "name": ...}. A text prompt prints as text, a chat prompt as a JSON array.
  --json prints {name, version, labels, type, compiled, analysis}.`))
      .action(lazy(ctx, () => import('./compile.js')));
    examples(
      compile,
      'llmobs prompts compile support/agent --label production --var name=Ada --placeholder history=@history.json --strict',
      'llmobs prompts compile support/greeting --vars-file vars.yaml',
    );
  });

  verb(prompts, 'diff', () => {
    const diff = prompts
      .command('diff')
      .description('unified diff of the content (chat messages one per block) and the config of two versions')
      .argument('<name>', 'prompt name')
      .argument('<a>', 'a version number or a label')
      .argument('<b>', 'a version number or a label')
      .option('-U, --context <lines>', 'lines of context', '3')
      .option('--exit-code', 'exit 9 when the versions differ and 0 when they do not (as prompts status --exit-code)')
      .action(lazy(ctx, () => import('./diff.js')));
    examples(
      diff,
      'llmobs prompts diff support/agent production staging',
      'llmobs prompts diff support/agent 3 latest --json',
      '# In CI: is there anything to promote?',
      'llmobs prompts diff support/agent production staging --exit-code > /dev/null || echo "staging differs"',
    );
  });

  verb(prompts, 'pull', () => {
    const pull = prompts
      .command('pull')
      .description('write prompts into a directory, one file per prompt (the name is the path): text as .md, chat as .yaml')
      .argument('[names...]', 'prompts to pull (default: every prompt of the project)')
      .option('--dir <dir>', 'directory of prompt files', 'prompts')
      .option('--label <label>', 'the version that carries this label (default: the latest version); without names, only prompts that have it')
      .option('--version <n>', VERSION_HELP)
      .option('--force', 'overwrite local files that differ from the server')
      .addHelpText('after', helpText(`
  References to other prompts are written as they are stored (@@@langfusePrompt:...@@@), never resolved.
  A file that already says what the server has is left as it is; one that differs is kept (exit 9)
  unless --force. Pull then push sends nothing. The format is described in the README ("Prompts in git").`))
      .action(lazy(ctx, () => import('./pull.js')));
    examples(pull, 'llmobs prompts pull', 'llmobs prompts pull support/agent --label production --dir prompts');
  });

  verb(prompts, 'status', () => {
    const status = prompts
      .command('status')
      .description('compare a directory of prompt files with the server: unchanged, changed (with diffs), new, labels or tags to set, and prompts only on the server')
      .argument('[names...]', 'only these prompts (default: every file in the directory)')
      .option('--dir <dir>', 'directory of prompt files', 'prompts')
      .option('-l, --label <label>', 'also check that this label points at a version equal to each file (repeatable)', collect)
      .option('--exit-code', 'exit 9 when something would be pushed (0 when in sync), for CI checks')
      .addHelpText('after', helpText(`
  Reads the list of prompts (one request per 100) and each file's latest version (one request per
  prompt); a label that is not on the latest version costs one more request for that prompt.
  Every file is checked first: problems are reported together and exit 2.`))
      .action(lazy(ctx, () => import('./status.js')));
    examples(status, 'llmobs prompts status', 'llmobs prompts status --label production --exit-code', 'llmobs prompts status support/agent --dir prompts --json');
  });

  verb(prompts, 'push', () => {
    const push = prompts
      .command('push')
      .description('make the server match a directory of prompt files: a new version only where the content differs, labels moved, referenced prompts first')
      .argument('[names...]', 'only these prompts (default: every file in the directory)')
      .option('--dir <dir>', 'directory of prompt files', 'prompts')
      .option('-l, --label <label>', 'point this label at a version equal to each pushed file: the new version, or the latest by a label move (repeatable; never latest)', collect)
      .option('-m, --message <message>', 'commit message of the versions created')
      .option('--dry-run', 'print the plan and send nothing')
      .addHelpText('after', helpText(`
  A version is created only when type, prompt or config differ from the latest version (or a tag
  list in the file differs: the API sets tags only with a new version). A second push sends nothing.
  Nothing is sent while any file has a problem (exit 2). If a request fails midway, what was pushed
  and what was not is listed; running the push again sends the rest. Rate limits (429) are waited
  out as the server's Retry-After asks.`))
      .action(lazy(ctx, () => import('./push.js')));
    examples(push, 'llmobs prompts push --dry-run', 'llmobs prompts push --label staging -m "$GIT_COMMIT_MESSAGE"');
  });

  verb(prompts, 'copy', () => {
    const copy = prompts
      .command('copy')
      .description('copy prompts to another project or region: labelled versions and the latest, with labels, config, tags and commit messages')
      .argument('[names...]', 'prompts to copy')
      .option('--all', 'every prompt of the source project')
      .option('--to-profile <profile>', 'the destination: this profile\'s server and keys (required)')
      .option('--from-profile <profile>', 'the source (default: the usual settings: flags, environment, active profile)')
      .option('-l, --label <label>', 'copy only the versions with this label (repeatable; latest means the latest version)', collect)
      .option('--all-versions', 'every version in order; prints which destination version each source version became')
      .option('--dry-run', 'print the plan and send nothing')
      .addHelpText('after', helpText(`
  Versions are matched by content (type, prompt, config), not by number: a second copy sends nothing.
  Prompts referenced by others are copied first; a reference to a version number of a copied prompt
  is rewritten to that version's number in the destination. References are never resolved.`))
      .action(lazy(ctx, () => import('./copy.js')));
    examples(copy, 'llmobs prompts copy --all --to-profile us-prod --dry-run', 'llmobs prompts copy support/agent --from-profile eu-staging --to-profile eu-prod --label production');
  });

  verb(prompts, 'delete', () => {
    const remove = prompts
      .command('delete')
      .alias('rm')
      .description('delete one version (--version), the versions with a label (--label), or without either the whole prompt')
      .argument('<name>', 'prompt name')
      .option('--version <n>', 'delete only this version')
      .option('--label <label>', 'delete the version that carries this label')
      .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
      .addHelpText('after', helpText(`
  If the version holding 'latest' is deleted, the server moves 'latest' to the highest remaining
  version. Other labels on deleted versions are gone; fetching by them answers 404 afterwards.`))
      .action(lazy(ctx, () => import('./delete.js')));
    examples(remove, 'llmobs prompts delete support/agent --version 2', 'llmobs prompts rm support/old --yes');
  });
}
