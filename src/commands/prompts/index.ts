import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { collect } from '../options.js';
import { addPagingFlags } from '../paging-flags.js';
import { examples } from '../examples.js';

const VERSION_HELP = 'a version number';
const LABEL_HELP = 'the version that carries this label';

export function registerPrompts(program: Command, ctx: Context): void {
  const prompts = program
    .command('prompts')
    .alias('prompt')
    .description('manage prompts: create versions, fetch, list, compile, diff and delete. Names may contain folders (team/app/summary)');
  examples(prompts, "llmobs prompts create support/greeting --text 'Hello {{name}}' --label staging", 'llmobs prompts get support/greeting --label staging', 'llmobs prompts diff support/greeting production staging');

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
    .addHelpText('after', `
Content comes from exactly one of --text, --file, --chat-file, or stdin when none is given.
Everything is checked before anything is sent (exit 2): the name, labels (lowercase letters,
digits, _ - . and at most 36 characters; 'latest' is set by the server), the commit message, chat
messages, and that a chat prompt does not use one name for a variable and a placeholder.
A create is never repeated after a failure, except when the server answers that it collided with
concurrent creates of the same prompt (nothing was created): then it is tried again, up to --retries.`)
    .action(lazy(ctx, () => import('./create.js')));
  examples(
    create,
    "llmobs prompts create support/greeting --text 'Hello {{name}}' --label staging",
    "llmobs prompts create support/agent --chat-file agent.yaml --config-file model.json -m 'shorter answers'",
    'cat prompt.txt | llmobs prompts create summary --label production --tag team-a',
  );

  const get = prompts
    .command('get')
    .description('show one version: without --version or --label, the one labelled production (the server\'s default)')
    .argument('<name>', 'prompt name')
    .option('--version <n>', VERSION_HELP)
    .option('--label <label>', LABEL_HELP)
    .option('--raw', 'print only the content: the text, or the chat messages as JSON')
    .option('--no-resolve', 'the stored content, with references to other prompts left unresolved')
    .addHelpText('after', `
References to other prompts (@@@langfusePrompt:name=NAME|label=LABEL@@@ or |version=N) are replaced
by those prompts' text, as they are labelled now; References lists the versions used.
--json prints the API object (content, type, version, labels, tags, config, commit message, dates,
and resolutionGraph: the versions each reference used, or null).
--raw prints the content exactly as stored when piped, and ends it with a line break on a terminal.`)
    .action(lazy(ctx, () => import('./get.js')));
  examples(
    get,
    'llmobs prompts get support/agent',
    'llmobs prompts get support/agent --label staging --raw > agent.txt',
    "llmobs prompts get support/agent --version 3 --jq '.config.model'",
  );

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
    .addHelpText('after', `
Filters apply to each version: with --label production, VERSIONS shows only the version that has it,
and with --from-updated-at only the versions updated since then.
--json prints {"data": [...], "meta": {page, limit, totalItems, totalPages}}, the same shape with
--limit and --all (meta is the server's, of the first page read).`)
    .action(lazy(ctx, () => import('./list.js')));
  examples(
    list,
    'llmobs prompts list',
    'llmobs prompts ls --label production --limit 50',
    "llmobs prompts list --all --jq '.data[].name'",
    'llmobs prompts list --tag team-a --csv > prompts.csv',
  );

  const versions = prompts
    .command('versions')
    .description('every version, newest first, with its labels, date and commit message')
    .argument('<name>', 'prompt name')
    .option('--limit <n>', 'print at most n versions, the newest (default: all)')
    .addHelpText('after', `
Cost: the API lists a prompt's version numbers but not their details, so this sends one request
for the list and one per version shown (4 at a time). --limit keeps that down for long histories.`)
    .action(lazy(ctx, () => import('./versions.js')));
  examples(versions, 'llmobs prompts versions support/agent', 'llmobs prompts versions support/agent --limit 5 --json');

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
    .addHelpText('after', `
Mustache without HTML escaping: a missing variable renders as nothing. A placeholder given a list
of messages is replaced by them, an empty list drops it, and one not given stays in the output as
{"type": "placeholder", "name": ...}. A text prompt prints as text, a chat prompt as a JSON array.
--json prints {name, version, labels, type, compiled, analysis}.`)
    .action(lazy(ctx, () => import('./compile.js')));
  examples(
    compile,
    'llmobs prompts compile support/agent --label production --var name=Ada --placeholder history=@history.json --strict',
    'llmobs prompts compile support/greeting --vars-file vars.yaml',
  );

  const diff = prompts
    .command('diff')
    .description('unified diff of the content (chat messages one per block) and the config of two versions')
    .argument('<name>', 'prompt name')
    .argument('<a>', 'a version number or a label')
    .argument('<b>', 'a version number or a label')
    .option('-U, --context <lines>', 'lines of context', '3')
    .option('--exit-code', 'exit 1 when the versions differ and 0 when they do not, as git diff --exit-code')
    .action(lazy(ctx, () => import('./diff.js')));
  examples(
    diff,
    'llmobs prompts diff support/agent production staging',
    'llmobs prompts diff support/agent 3 latest --json',
    '# In CI: is there anything to promote?',
    'llmobs prompts diff support/agent production staging --exit-code > /dev/null || echo "staging differs"',
  );

  const remove = prompts
    .command('delete')
    .alias('rm')
    .description('delete one version (--version), the versions with a label (--label), or without either the whole prompt')
    .argument('<name>', 'prompt name')
    .option('--version <n>', 'delete only this version')
    .option('--label <label>', 'delete the version that carries this label')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .addHelpText('after', `
If the version holding 'latest' is deleted, the server moves 'latest' to the highest remaining
version. Other labels on deleted versions are gone; fetching by them answers 404 afterwards.`)
    .action(lazy(ctx, () => import('./delete.js')));
  examples(remove, 'llmobs prompts delete support/agent --version 2', 'llmobs prompts rm support/old --yes');
}
