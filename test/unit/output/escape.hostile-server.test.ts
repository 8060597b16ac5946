// A hostile (or broken) server puts terminal escapes in every string it returns: window-title
// setters, hidden text, the one-byte CSI. No command may pass them to the terminal raw, in data
// or in messages; llmobs's own colours are the only escapes allowed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';

const E = '\u001b]0;owned\u0007\u001b[8m\u009b2J\r';
// Control bytes other than tab and newline, and ESC unless it starts one of our SGR colours.
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]|\u001b(?!\[(?:1|2|22|31|32|33|36|39)m)/;

const model = {
  id: `m${E}`,
  modelName: `name${E}`,
  matchPattern: `(?i)^name(${E})?$`,
  startDate: null,
  unit: 'TOKENS',
  inputPrice: 0.000001,
  outputPrice: null,
  totalPrice: null,
  tokenizerId: `tok${E}`,
  tokenizerConfig: { tokenizerModel: `gpt${E}` },
  isLangfuseManaged: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  prices: { [`input${E}`]: { price: 0.000001 } },
  pricingTiers: [{ id: `t${E}`, name: `tier${E}`, isDefault: true, priority: 0, conditions: [], prices: { [`input${E}`]: 0.000001 } }],
};
const promptMeta = (name: string) => ({ name, type: 'text', versions: [1], labels: [`l${E}`], tags: [`t${E}`], lastUpdatedAt: '2026-01-01T00:00:00.000Z', lastConfig: {} });
const prompt = {
  name: 'x',
  version: 1,
  type: 'chat',
  prompt: [{ role: `user${E}`, content: `c${E} {{v${E}}}` }, { type: 'placeholder', name: `ph${E}` }],
  config: { [`k${E}`]: `v${E}` },
  labels: [`l${E}`],
  tags: [`t${E}`],
  commitMessage: `m${E}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: `u${E}`,
};

function answer(url: string): unknown {
  const path = url.split('?')[0]!;
  if (path === '/api/public/health') return { status: `OK${E}`, version: `4.0${E}` };
  if (path === '/api/public/projects') return { data: [{ id: `p${E}`, name: `proj${E}`, organization: { id: `o${E}`, name: `org${E}` }, metadata: {} }] };
  if (path.startsWith('/api/public/models/')) return model;
  if (path === '/api/public/models') return { data: [model], meta: { page: 1, limit: 100, totalItems: 1, totalPages: 1 } };
  if (path === '/api/public/v2/prompts') return { data: [promptMeta(`p${E}`), promptMeta('x')], meta: { page: 1, limit: 50, totalItems: 2, totalPages: 1 } };
  return prompt;
}

let server: Server;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer(req.url ?? '')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = isolatedEnv({ LANGFUSE_HOST: url, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const commands: Array<[string[], number]> = [
  [['health'], 0],
  [['projects'], 0],
  [['whoami'], 0],
  [['doctor'], 0],
  [['models', 'list'], 0],
  [['models', 'get', 'x'], 0],
  [['models', 'match', 'name'], 0],
  [['models', 'lint'], 9],
  [['prompts', 'list'], 0],
  [['prompts', 'get', 'x'], 0],
  [['prompts', 'versions', 'x'], 0],
  [['prompts', 'compile', 'x'], 0],
  [['labels', 'list', 'x'], 0],
  [['api', '/models', '--include'], 0],
  [['estimate', '--model', 'name', '--input', 'hi'], 0],
  [['tokens', 'count', 'hi', '--model', 'name'], 2],
];

describe.each([true, false])('on a terminal: %s', (tty) => {
  it.each(commands)('%j prints no raw control bytes', async (args, exitCode) => {
    const result = await runInProcess(args, { env, tty });
    expect(result.exitCode, result.stderr).toBe(exitCode);
    expect(result.stdout + result.stderr).not.toBe('');
    expect(result.stderr).not.toMatch(RAW);
    // Piped data is the server's, byte for byte, for scripts; a terminal gets it escaped.
    if (tty) expect(result.stdout).not.toMatch(RAW);
  });
});
