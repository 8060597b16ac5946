// Names in traces and observations are chosen by whoever sends them: terminal escapes in trace
// and observation names, model names, users, tags and environments reach the data commands.
// On a terminal nothing of them is printed raw: tables, trees, cost groups and bar labels,
// warnings and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDataServer, type SeedObservation, startFakeDataServer } from '../../helpers/fake-data-api.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';

const E = '\u001b]0;owned\u0007\u001b[8m\u009b2J\r';
// eslint-disable-next-line no-control-regex
// Progress lines (on stderr) are redrawn with CR ESC [2K.
const RAW = /[\u0000-\u0008\u000b-\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f]|\r(?!\u001b\[2K)|\u001b(?!\[(?:1|2|22|31|32|33|36|39)m|\[2K)/;

const TRACE = { id: 'trace-1', timestamp: '2026-05-02T10:00:00.000Z', name: `chat${E}`, userId: `user${E}`, sessionId: `s${E}`, release: `r${E}`, version: `v${E}`, environment: `prod${E}`, tags: [`tag${E}`] };
const observations: SeedObservation[] = [
  { id: `root${E}`, traceId: TRACE.id, type: 'SPAN', startTime: '2026-05-02T10:00:00.000Z', endTime: '2026-05-02T10:00:02.000Z', name: `root span${E}`, environment: `prod${E}`, statusMessage: `status${E}` },
  {
    id: 'gen-1',
    traceId: TRACE.id,
    parentObservationId: `root${E}`,
    type: 'GENERATION',
    startTime: '2026-05-02T10:00:01.000Z',
    endTime: '2026-05-02T10:00:02.000Z',
    name: `generate${E}`,
    level: 'ERROR',
    statusMessage: `failed${E}`,
    environment: `prod${E}`,
    userId: `user${E}`,
    providedModelName: `gpt-4o${E}`,
    usageDetails: { input: 100, output: 10, total: 110 },
    costDetails: { input: 0.00025, output: 0.0001, total: 0.00035 },
    promptName: `prompt${E}`,
    promptVersion: 1,
  },
];

let server: FakeDataServer;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  server = await startFakeDataServer();
  server.addTrace(TRACE, observations);
  env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
});
afterAll(() => server.close());

const range = ['--from', '2026-05-01', '--to', '2026-06-01'];
const commands: string[][] = [
  ['traces', 'list', ...range],
  ['traces', 'get', TRACE.id],
  ['observations', 'list', ...range],
  ['observations', 'list', ...range, '--fields', 'core,basic,model'],
  ['cost', 'report', ...range, '--no-cache'],
  ['cost', 'report', ...range, '--by', 'user,environment,name', '--no-cache'],
  ['cost', 'report', ...range, '--by', 'prompt', '--by', 'day', '--no-cache'],
  ['cost', 'report', ...range, '--by', 'trace,release', '--budget', '0.0001', '--no-cache'],
  ['cost', 'recompute', ...range, '--offline'],
];

describe.each([true, false])('on a terminal: %s', (tty) => {
  it.each(commands)('%s %s %s %s %s %s %s %s prints no raw control bytes', async (...args) => {
    const result = await runInProcess(args, { env, tty, cwd: tempDir() });
    expect([0, 9], result.stderr).toContain(result.exitCode);
    expect(result.stdout + result.stderr).not.toBe('');
    expect(result.stderr).not.toMatch(RAW);
    if (tty) {
      expect(result.stdout).not.toMatch(RAW);
      // The names are there, made visible.
      expect(result.stdout + result.stderr).toContain('\\e]0;owned\\x07');
    }
  });
});
