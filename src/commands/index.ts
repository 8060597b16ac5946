// Every top-level command, in the order of the program's help. A command group's verbs (its
// folder's index.ts) load when a run reaches the group; the other commands are their own files.
import api from './api.js';
import completion from './completion.js';
import doctor from './doctor.js';
import estimate from './estimate.js';
import health from './health.js';
import help from './help.js';
import projects from './projects.js';
import server from './server.js';
import version from './version.js';
import whoami from './whoami.js';
import { type Definition, defineGroup } from './define.js';

const profile = defineGroup({
  name: 'profile',
  summary: 'manage connection profiles (server, region and keys), stored in a 0600 file',
  examples: [
    'llmobs profile add prod-us --region us',
    'llmobs profile use prod-us',
    'llmobs profile show',
  ],
  verbs: async () => (await import('./profile/index.js')).VERBS,
});

const models = defineGroup({
  name: 'models',
  summary: 'model definitions: list, inspect, create, update and delete them, or keep them in a file (pull, status, push); see what a model name matches and what it costs',
  examples: [
    'llmobs models list --custom',
    'llmobs models match gpt-4o-2024-08-06',
    'llmobs models create --name my-model --price input=2.5/1M --price output=10/1M',
  ],
  verbs: async () => (await import('./models/index.js')).VERBS,
});

const prompts = defineGroup({
  name: 'prompts',
  aliases: ['prompt'],
  summary: 'manage prompts: create versions, fetch, list, compile, diff and delete; keep them in git with pull, status and push; copy them between projects. Names may contain folders (team/app/summary)',
  examples: [
    'llmobs prompts create support/greeting --text \'Hello {{name}}\' --label staging',
    'llmobs prompts get support/greeting --label staging',
    'llmobs prompts diff support/greeting production staging',
  ],
  verbs: async () => (await import('./prompts/index.js')).VERBS,
});

const labels = defineGroup({
  name: 'labels',
  aliases: ['label'],
  summary: 'see and move prompt labels (production, staging, ...): promotion and rollback without a deploy',
  examples: [
    'llmobs labels list support/agent',
    'llmobs labels promote support/agent --from staging --to production',
    'llmobs labels set support/agent production --version 3',
  ],
  verbs: async () => (await import('./labels/index.js')).VERBS,
});

const tokens = defineGroup({
  name: 'tokens',
  summary: 'count tokens offline with the tokenizers the server uses',
  examples: [
    'llmobs tokens count \'Hello, world\'',
    'llmobs tokens count --file prompt.txt --model gpt-4o',
  ],
  verbs: async () => (await import('./tokens/index.js')).VERBS,
});

const traces = defineGroup({
  name: 'traces',
  summary: 'read traces: one as a tree of its observations with totals, or a filtered list',
  examples: [
    'llmobs traces list --user user-42 --from 24h',
    'llmobs traces get 7f3c9a2e --io',
  ],
  verbs: async () => (await import('./traces/index.js')).VERBS,
});

const observations = defineGroup({
  name: 'observations',
  summary: 'observations (spans, generations, events ...) through the v2 API: list them, or export them to a file that survives interruption',
  examples: [
    'llmobs observations list --type GENERATION --level ERROR',
    'llmobs observations export --from 2026-05-01 --to 2026-06-01 --output may.jsonl',
  ],
  verbs: async () => (await import('./observations/index.js')).VERBS,
});

const exportGroup = defineGroup({
  name: 'export',
  summary: 'keep a folder up to date with the project\'s observations, in the layout of Langfuse\'s blob-storage export',
  examples: [
    'llmobs export blob ./lake --from 7d --interval daily',
  ],
  verbs: async () => (await import('./export/index.js')).VERBS,
});

const cost = defineGroup({
  name: 'cost',
  summary: 'what the project spent (from the Metrics API), and what past generations cost under other prices',
  examples: [
    'llmobs cost report --month last --by model',
    'llmobs cost recompute --input may.jsonl --models-file new-prices.yaml',
  ],
  verbs: async () => (await import('./cost/index.js')).VERBS,
});

export const COMMANDS: readonly Definition[] = [
  profile,
  models,
  prompts,
  labels,
  tokens,
  estimate,
  traces,
  observations,
  exportGroup,
  cost,
  health,
  projects,
  whoami,
  doctor,
  api,
  completion,
  server,
  help,
  version,
];
