#!/usr/bin/env node
// Writes completions/ and src/commands/top-level.json from the built command tree. Run after
// changing commands or options (a test fails when either is stale):
//   npm run build && npm run completions && npm run build
// top-level.json is what the help shows of each command and verb (src/commands/register.ts
// defines only the commands and verbs a run names, and stands in for the others with these
// entries); it is bundled, hence the second build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildProgram, helpFooter } = await import(join(root, 'dist/cli.cjs'));
const { Context, defaultDeps } = await import(join(root, 'dist/context.js'));
const { generate, completionFileName, SHELLS } = await import(join(root, 'dist/completion/generate.js'));

mkdirSync(join(root, 'completions'), { recursive: true });
for (const shell of SHELLS) {
  const program = await buildProgram(new Context(defaultDeps()));
  writeFileSync(join(root, 'completions', completionFileName(shell)), generate(shell, program));
}
console.log(`wrote ${SHELLS.map(completionFileName).map((name) => `completions/${name}`).join(', ')}`);

const program = await buildProgram(new Context(defaultDeps()));
const help = program.createHelp();
const entry = (command) => ({
  name: command.name(),
  aliases: command.aliases(),
  term: help.subcommandTerm(command),
  description: command.description(),
  summary: help.subcommandDescription(command),
});
// A group's verbs too: a run defines only the verbs it names (src/commands/register.ts, verb()).
const commands = program.commands.map((command) => (command.commands.length > 0 ? { ...entry(command), verbs: command.commands.map(entry) } : entry(command)));
// The program's options as its help shows them: a run that shows the program's help and names
// none of them stands in for them with these (src/cli.ts, programOptionsFor).
const programOptions = program.options.filter((option) => !option.hidden).map((option) => ({ term: help.optionTerm(option), description: help.optionDescription(option) }));
const topLevel = { generatedBy: 'npm run completions (scripts/gen-completions.mjs), from the command tree', commands, programOptions, programHelpFooter: helpFooter() };
writeFileSync(join(root, 'src', 'commands', 'top-level.json'), `${JSON.stringify(topLevel, null, 2)}\n`);
console.log('wrote src/commands/top-level.json');
