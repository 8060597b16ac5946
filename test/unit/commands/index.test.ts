// Every example in every command's --help runs as written, against local servers holding what the
// examples name (prompts, labels, definitions, profiles, files): an example that fails its own
// checks, matches nothing or filters a JSON shape the command does not print is caught here.
// Commands added later are held to this without touching this file.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli.js';
import { examplesOf } from '../../../src/commands/define.js';
import type { Profile } from '../../../src/config/schema.js';
import { Context, defaultDeps } from '../../../src/context.js';
import type { Prompter } from '../../../src/prompter.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { llmobsWords } from '../../helpers/shell-words.js';

function walk(command: Command, path: string[] = []): Array<{ command: Command; path: string[] }> {
  return [{ command, path }, ...command.commands.flatMap((child) => walk(child, [...path, child.name()]))];
}

/** Examples that cannot run here, and why. */
const NOT_RUN: Array<[RegExp, string]> = [
  [/^llmobs server\b/, 'runs until stopped'],
  [/https:\/\/[a-z.]*cloud\.langfuse\.com/, 'reaches Langfuse Cloud'],
  [/^llmobs observations export .*--resume/, 'continues an export that failed or was stopped (test/e2e/export.test.ts stops one)'],
  [/^llmobs export blob (s3|az):\/\//, 'writes to a cloud bucket (test/e2e/export-blob-s3.test.ts and export-blob-azure.test.ts run s3rver and Azurite)'],
  [/\bllmobs export integration\b/, 'takes an organization key for a project id (test/e2e/blob-integration.test.ts runs each against llmobs server)'],
];

/** Shell variables the examples use. */
const VARIABLES: Record<string, string> = { TRACE_ID: '7f3c9a2e' };

/** Examples whose exit code is not 0 by design. */
const EXIT_CODES: Record<string, number> = {
  // Explains that the API cannot remove labels.
  'llmobs labels remove support/agent staging': 2,
};

const AGENT = `- role: system
  content: You help {{name}}.
- type: placeholder
  name: history
`;

const FILES: Record<string, string> = {
  'agent.yaml': AGENT,
  // A model definition, and also any JSON a prompt config may be.
  'model.json': JSON.stringify({ modelName: 'api-model', matchPattern: '(?i)^api-model$', unit: 'TOKENS', inputPrice: 0.000001 }),
  'model.yaml': 'name: my-model\nmatch_pattern: "(?i)^my-model$"\nunit: TOKENS\npricing:\n  input: 0.0000025\n  output: 0.00001\n',
  'models.yaml': [
    '- modelName: my-model\n  matchPattern: "(?i)^my-model$"\n  unit: TOKENS\n  prices:\n    input: 0.0000025\n    output: 0.00001',
    '- modelName: ft:gpt-4o:acme\n  matchPattern: "(?i)^ft:gpt-4o:acme(:.+)?$"\n  unit: TOKENS\n  prices:\n    input: 0.00000375\n    output: 0.000015\n',
  ].join('\n'),
  'history.json': JSON.stringify([{ role: 'user', content: 'Hi' }]),
  'vars.yaml': 'name: Ada\n',
  'prompt.txt': 'Summarise {{text}}.\n',
  'transcript.txt': 'A: hello\nB: hi there\n',
  'request.json': JSON.stringify([{ role: 'user', content: 'What is the capital of France?' }]),
  'response.txt': 'Paris.',
  'generations.jsonl': '{"model":"gpt-4o","input":"hi","output":"hello"}\n{"model":"my-model","usage":{"input":10,"output":2}}\n',
  'secret.txt': 'sk-lf-example-secret',
  'new-prices.yaml': '- modelName: gpt-4o\n  matchPattern: "(?i)^(openai/)?(gpt-4o)$"\n  unit: TOKENS\n  prices:\n    input: 0.000002\n    output: 0.000008\n',
};

/** Answers every question a terminal would ask: yes, and keys for a new profile. */
const prompter: Prompter = {
  input: async () => 'pk-lf-example',
  password: async () => 'sk-lf-example',
  select: async ({ choices }) => choices[0]!.value,
  confirm: async () => true,
};

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Two projects (the second for copies), profiles for each name the examples use, and the data they read. */
async function workspace(path: readonly string[], lines: readonly string[]): Promise<{ env: Record<string, string | undefined>; cwd: string }> {
  // The data commands' examples read what an SDK sent over the batch route with v3 (traces) and
  // v4 (observations export, cost report) routes: dual mode. The rest run as Langfuse's default.
  const writeMode = ['traces', 'observations', 'cost'].includes(path[0]!) ? 'dual' : undefined;
  servers = [await startServer({ port: 0, ephemeral: true, writeMode }), await startServer({ port: 0, ephemeral: true, writeMode })];
  const [main, other] = servers as [RunningServer, RunningServer];
  const env = isolatedEnv();
  const cwd = tempDir('llmobs-examples-');
  for (const [name, text] of Object.entries(FILES)) {
    // `models pull` writes its own.
    if (!(name === 'models.yaml' && path.join(' ') === 'models pull')) writeFileSync(join(cwd, name), text);
  }

  // Profiles straight into the profile file; examples that add a profile start without it.
  const added = new Set(lines.flatMap((line) => /llmobs profile add (\S+)/.exec(line)?.[1] ?? []));
  const profiles: Record<string, Profile> = {};
  const named: Array<[string, RunningServer]> = [['prod-us', main], ['staging', main], ['eu-staging', main], ['old-staging', main], ['old-ci', main], ['us-prod', other], ['eu-prod', other]];
  for (const [name, server] of named) {
    if (!added.has(name)) profiles[name] = { baseUrl: server.url, publicKey: server.keys.publicKey, secretKey: server.keys.secretKey };
  }
  mkdirSync(env.LLMOBS_CONFIG_DIR!, { recursive: true, mode: 0o700 });
  writeFileSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json'), JSON.stringify({ activeProfile: added.has('prod-us') ? 'staging' : 'prod-us', profiles }), { mode: 0o600 });

  // Data over the API, as any client would have created it.
  const send = async (method: string, route: string, body: unknown) => {
    const response = await fetch(`${main.url}/api/public/${route}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${main.keys.publicKey}:${main.keys.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.ok, `setup: ${method} ${route}: ${await response.text()}`).toBe(true);
  };
  const messages = [{ role: 'system', content: 'You help {{name}}.' }, { type: 'placeholder', name: 'history' }];
  for (let i = 1; i <= 5; i++) {
    await send('POST', 'v2/prompts', { name: 'support/agent', type: 'chat', prompt: messages, config: { model: 'gpt-4o' }, commitMessage: `v${i}`, labels: i === 3 ? ['production'] : i === 4 ? ['staging'] : [] });
  }
  await send('POST', 'v2/prompts', { name: 'support/greeting', type: 'text', prompt: 'Hello {{name}}', labels: ['production'] });
  await send('POST', 'v2/prompts', { name: 'support/greeting', type: 'text', prompt: 'Hello {{name}}!', labels: ['staging'] });
  await send('POST', 'v2/prompts', { name: 'support/old', type: 'text', prompt: 'old', labels: [] });
  for (let i = 1; i <= 3; i++) await send('POST', 'v2/prompts', { name: 'team/summary', type: 'text', prompt: `Summary ${i}`, labels: [] });
  // Definitions the examples read; the examples that create one start without it.
  if (!['models', 'models create'].includes(path.join(' '))) {
    await send('POST', 'models', { modelName: 'my-model', matchPattern: '(?i)^my-model$', unit: 'TOKENS', inputPrice: 0.0000025, outputPrice: 0.00001 });
    await send('POST', 'models', { modelName: 'ft:gpt-4o:acme', matchPattern: '(?i)^ft:gpt-4o:acme(:.+)?$', unit: 'TOKENS', inputPrice: 0.00000375, outputPrice: 0.000015 });
    await send('POST', 'models', { modelName: 'old-model', matchPattern: '(?i)^old-model$', unit: 'TOKENS', inputPrice: 0.000001 });
  }

  // A trace with a generation, as an SDK would have sent it, for the data commands.
  if (['traces', 'observations', 'cost'].includes(path[0]!)) {
    const at = '2026-05-10T12:00:00.000Z';
    await send('POST', 'ingestion', {
      batch: [
        { id: 'e1', type: 'trace-create', timestamp: at, body: { id: '7f3c9a2e', name: 'chat', userId: 'user-42', tags: ['beta'], environment: 'production', timestamp: at } },
        { id: 'e2', type: 'generation-create', timestamp: at, body: { id: 'g1', traceId: '7f3c9a2e', name: 'answer', model: 'gpt-4o', startTime: at, endTime: '2026-05-10T12:00:01.500Z', input: 'What is the capital of France?', output: 'Paris.', usageDetails: { input: 12, output: 3 }, environment: 'production' } },
      ],
    });
  }

  // Files as pulled: definitions, and prompts as production has them (plain status compares
  // them with the latest versions); pull examples write their own.
  const run = async (argv: string[]) => {
    const result = await runInProcess(argv, { env, cwd });
    expect(result.exitCode, `setup: llmobs ${argv.join(' ')}: ${result.stderr}`).toBe(0);
  };
  if (path[0] === 'models' && path[1] !== 'pull') await run(['models', 'pull', '--file', 'models.yaml', '--force']);
  if (path[0] === 'prompts' && path[1] !== 'pull') await run(['prompts', 'pull', '--label', 'production']);
  // The export the re-pricing examples read.
  if (path[0] === 'cost') await run(['observations', 'export', '--from', '2026-05-01', '--to', '2026-06-01', '--output', 'may.jsonl']);
  return { env, cwd };
}

/** What an example line feeds llmobs on stdin (`cat FILE |`, `< FILE`, a secret from printf). */
function stdinOf(line: string, cwd: string): string | undefined {
  const cat = /^cat (\S+) \|/.exec(line) ?? /<\s*(\S+)/.exec(line);
  if (cat) return readFileSync(join(cwd, cat[1]!), 'utf8');
  if (/^printf %s "\$\w+" \|/.test(line)) return 'sk-lf-example-secret';
  return undefined;
}

const commands = walk(await buildProgram(new Context(defaultDeps()))).filter(({ command }) => examplesOf(command).length > 0);

describe('every example in the help', () => {
  it.each(commands.map(({ command, path }) => [['llmobs', ...path].join(' '), path, examplesOf(command)] as const))('%s: runs as written', async (_label, path, lines) => {
    const { env, cwd } = await workspace(path, lines);
    for (const line of lines.filter((candidate) => !candidate.startsWith('#'))) {
      if (NOT_RUN.some(([pattern]) => pattern.test(line))) continue;
      const words = llmobsWords(line)!.map((word) => word.replace(/^\$(\w+)$/, (whole, name: string) => VARIABLES[name] ?? whole));
      // On a terminal, as a reader runs it; a line that pipes something in has it on stdin instead.
      const stdin = stdinOf(line, cwd);
      const result = await runInProcess(words, { env, cwd, tty: stdin === undefined, prompter, stdin });
      // `|| echo ...` after a check: a difference (9) is what the line handles.
      const expected = EXIT_CODES[line] ?? (/\|\|/.test(line) && result.exitCode === 9 ? 9 : 0);
      expect(result.exitCode, `${line}\n${result.stderr}`).toBe(expected);
    }
  });
});
