// --jq through the CLI (in-process, fake streams), and with --csv and --headers against the real
// local server where data is needed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { type LocalCli, localCli } from '../../helpers/local-cli.js';

// Counts loads of jq-wasm: it must load only when --jq is given.
const jqLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock('jq-wasm', async (importOriginal) => {
  jqLoads.count++;
  return importOriginal();
});

describe('--jq', () => {
  it('loads jq only when --jq is given', async () => {
    const before = jqLoads.count;
    expect((await runInProcess(['tokens', 'count', 'hello', '--json'])).exitCode).toBe(0);
    expect(jqLoads.count).toBe(before);
    const filtered = await runInProcess(['tokens', 'count', 'hello', '--jq', '.tokens']);
    expect([filtered.exitCode, filtered.stdout]).toEqual([0, '1\n']);
    expect(jqLoads.count).toBe(before + 1);
  });

  it('prints strings raw, other values compact when piped and indented on a terminal', async () => {
    const piped = await runInProcess(['tokens', 'count', 'hello', '--jq', '., .encoding, "  spaced  "']);
    expect(piped.stdout).toBe('{"tokens":1,"tokenizer":"openai","encoding":"o200k_base"}\no200k_base\n  spaced  \n');
    const tty = await runInProcess(['tokens', 'count', 'hello', '-q', '{tokens}'], { tty: true });
    expect(tty.stdout).toBe('{\n  "tokens": 1\n}\n');
  });

  it('refuses a filter that does not compile before doing anything, exit 2, in the user\'s terms', async () => {
    const result = await runInProcess(['tokens', 'count', 'hello', '--jq', '.tokens |']);
    expect([result.exitCode, result.stdout]).toEqual([2, '']);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'usage', message: '--jq: syntax error: the expression ends too early' });
    const unknown = await runInProcess(['tokens', 'count', 'hello', '--jq', '.tokens | nosuchfn']);
    expect(JSON.parse(unknown.stderr).error.message).toBe('--jq: nosuchfn/0 is not defined (line 1, column 11)');
    expect((await runInProcess(['tokens', 'count', 'hello', '--jq', ' '])).exitCode).toBe(2);
  });

  it('reports a filter that fails on the data with exit 2, after what it printed', async () => {
    const result = await runInProcess(['tokens', 'count', 'hello', '--jq', '.encoding, (.tokens | error("too few: \\(.)"))']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('o200k_base\n');
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'jq_failed', message: '--jq: too few: 1' });
  });

  it('says so when a command prints text rather than JSON', async () => {
    const result = await runInProcess(['completion', 'bash', '--jq', '.']);
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stderr).error.message).toBe('--jq: this command printed text, not JSON, so there is nothing to filter');
  });

  it('filters each line of a JSON Lines stream (estimate --batch), summary included', async () => {
    const dir = tempDir();
    const line = (id: string) => JSON.stringify({ id, model: 'gpt-4o', usageDetails: { input: 1000, output: 100 } });
    writeFileSync(join(dir, 'in.jsonl'), `${line('a')}\n${line('b')}\n`);
    const result = await runInProcess(['estimate', '--batch', 'in.jsonl', '--jq', 'if .summary then "lines: \\(.summary.lines)" else .id end'], { env: isolatedEnv(), cwd: dir });
    expect([result.exitCode, result.stdout]).toEqual([0, 'a\nb\nlines: 2\n']);
  });

  it('cannot read the environment, and what it prints is redacted like everything else', async () => {
    const secret = 'sk-lf-0123456789abcdef';
    const env = isolatedEnv({ LANGFUSE_HOST: 'http://127.0.0.1:9', LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: secret });
    const result = await runInProcess(['tokens', 'count', 'hello', '--jq', `[$ENV[], env[]] | join(" ")`], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain(secret);
  });

  it('cannot be combined with --csv, and --csv not with --json', async () => {
    expect((await runInProcess(['profile', 'list', '--csv', '--jq', '.'])).exitCode).toBe(2);
    const both = await runInProcess(['profile', 'list', '--csv', '--json']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('use either --csv or --json');
  });
});

describe('against the local server', () => {
  let cli: LocalCli;
  beforeAll(async () => {
    cli = await localCli();
    for (const name of ['s/one', 's/two', 's/three']) await cli.seed({ name, type: 'text', prompt: 'x, "quoted"', labels: ['production'], tags: ['t,1'] });
  });
  afterAll(() => cli.close());

  it('what a filter prints is redacted like everything else', async () => {
    const result = await cli.run(['api', 'health', '--jq', `"key: ${cli.server.keys.secretKey}"`]);
    expect([result.exitCode, result.stdout]).toEqual([0, 'key: [redacted]\n']);
  });

  it('a --jq that does not compile sends nothing', async () => {
    const result = await cli.run(['prompts', 'list', '--jq', '.data[']);
    expect([result.exitCode, result.sent]).toEqual([2, []]);
  });

  it('prompts list --jq, --csv and --headers', async () => {
    const names = await cli.run(['prompts', 'list', '--all', '--jq', '.data[].name']);
    expect(names.stdout.split('\n').filter(Boolean).sort()).toEqual(['s/one', 's/three', 's/two']);
    const csv = await cli.run(['prompts', 'list', '--csv']);
    const [header, ...lines] = csv.stdout.trimEnd().split('\n');
    expect(header).toBe('NAME,TYPE,VERSIONS,LABELS,TAGS,UPDATED');
    expect(lines).toHaveLength(3);
    for (const row of lines) expect(row).toMatch(/^s\/(one|two|three),text,1,"latest,production","t,1",\S+$/);
    const tsv = await cli.run(['prompts', 'list', '--headers']);
    expect(tsv.stdout.split('\n')[0]).toBe('NAME\tTYPE\tVERSIONS\tLABELS\tTAGS\tUPDATED');
  });

  it('the more-items hint is on stderr, with --json and --jq too', async () => {
    for (const flags of [[], ['--json'], ['--jq', '.data | length']]) {
      const result = await cli.run(['prompts', 'list', '--limit', '2', ...flags]);
      expect(result.stderr, flags.join(' ')).toContain('Showing 2 of 3 prompts. More: --limit 3, or --all');
    }
  });
});
