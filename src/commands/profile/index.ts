import { type Command, Option } from 'commander';
import { REGION_NAMES, REGIONS } from '../../config/regions.js';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { verb } from '../register.js';
import { examples } from '../examples.js';

export function registerProfile(program: Command, ctx: Context): void {
  const profile = program
    .command('profile')
    .description('manage connection profiles (server, region and keys), stored in a 0600 file');
  examples(profile, 'llmobs profile add prod-us --region us', 'llmobs profile use prod-us', 'llmobs profile show');

  verb(profile, 'add', () => {
    const add = profile
      .command('add')
      .description('add or replace a profile; asks for what is missing on a terminal. Keys are never taken as arguments: pass secrets on stdin')
      .argument('<name>', 'profile name')
      .addOption(
        new Option('--region <region>', `Langfuse Cloud region: ${REGION_NAMES.map((r) => `${r} (${new URL(REGIONS[r].url).host})`).join(', ')}; for other servers use --base-url`).choices(REGION_NAMES),
      )
      .option('--public-key <key>', 'project public key (pk-lf-...)')
      .option('--secret-key-stdin', 'read the project secret key (sk-lf-...) from stdin')
      .option('--api-key-stdin', 'read a Bearer API key from stdin instead of a key pair')
      .option('--default', 'make it the active profile')
      .option('--force', 'replace a profile of the same name')
      .action(lazy(ctx, () => import('./add.js')));
    examples(
      add,
      '# On a terminal: asks for the keys (the secret is masked)',
      'llmobs profile add prod-us --region us',
      '# In a script: the secret on stdin, never as an argument',
      'printf %s "$LANGFUSE_SECRET_KEY" | llmobs profile add ci --region eu --public-key pk-lf-123 --secret-key-stdin --default',
      '# A self-hosted server',
      'llmobs profile add local --base-url http://localhost:3000 --public-key pk-lf-123 --secret-key-stdin < secret.txt',
    );
  });

  verb(profile, 'list', () => {
    const list = profile
      .command('list')
      .alias('ls')
      .description('list profiles')
      .option('--names', 'print only the names, one per line')
      .action(lazy(ctx, () => import('./list.js')));
    examples(list, 'llmobs profile list', 'llmobs profile ls --names', 'llmobs profile list --json');
  });

  verb(profile, 'show', () => {
    const show = profile
      .command('show')
      .description('show a profile, or without a name the settings in effect and where each comes from')
      .argument('[profile]', 'profile name')
      .action(lazy(ctx, () => import('./show.js')));
    examples(show, '# The settings in effect and where each comes from', 'llmobs profile show', 'llmobs profile show prod-us --json');
  });

  verb(profile, 'use', () => {
    const use = profile
      .command('use')
      .description('make a profile the active one')
      .argument('<profile>', 'profile name')
      .action(lazy(ctx, () => import('./use.js')));
    examples(use, 'llmobs profile use prod-us', '# One command with another profile, without switching', 'llmobs --profile staging prompts list');
  });

  verb(profile, 'remove', () => {
    const remove = profile
      .command('remove')
      .alias('rm')
      .description('delete a profile')
      .argument('<profile>', 'profile name')
      .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
      .action(lazy(ctx, () => import('./remove.js')));
    examples(remove, 'llmobs profile remove old-staging', 'llmobs profile rm old-ci --yes');
  });

  verb(profile, 'test', () => {
    const test = profile
      .command('test')
      .description('check a profile against its server: project, organisation, host and round-trip time')
      .argument('[profile]', 'profile name (default: the settings in effect)')
      .action(lazy(ctx, () => import('./test.js')));
    examples(test, 'llmobs profile test', 'llmobs profile test prod-us --json');
  });
}
