// Control characters from names and server text never reach a terminal raw.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeJson, escapeText, escapeValue } from '../../../src/output/escape.js';
import { loadColors, Output } from '../../../src/output/output.js';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';
import { Capture } from '../../helpers/streams.js';

const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const C1_CSI = '\u009b31m';
// SGR sequences that hide text (concealed; black on black) or restyle everything after them.
const CONCEAL = '\u001b[8m';
const BLACK = '\u001b[30;40m';
// Raw control characters, and ESC other than the colour codes of our own styling.
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f]|\u001b(?!\[(?:1|2|22|31|32|33|36|39)m)/;

beforeAll(() => loadColors());

describe('escaping', () => {
  it('makes every control character visible in a value, and all but colours in text', () => {
    expect(escapeValue(`a${TITLE}b\tc\nd`)).toBe('a\\e]0;pwned\\x07b\\tc\\nd');
    expect(escapeText(`line 1\n\u001b[33mwarning:\u001b[39m ${CLEAR}${C1_CSI}`)).toBe('line 1\n\u001b[33mwarning:\u001b[39m \\e[2J\\e[H\\x9B31m');
    expect(escapeJson('{"a":"\u009b\u007f"}')).toBe('{"a":"\\u009b\\u007f"}');
    expect(JSON.parse(escapeJson(JSON.stringify({ a: `x${C1_CSI}` })))).toEqual({ a: `x${C1_CSI}` });
  });

  it('keeps only the colour codes of our own styling, and none in unstyled output', () => {
    expect(escapeText(`\u001b[1mbold\u001b[22m ${CONCEAL}secret\u001b[0m ${BLACK}dark\u001b[7m`)).toBe('\u001b[1mbold\u001b[22m \\e[8msecret\\e[0m \\e[30;40mdark\\e[7m');
    expect(escapeText('\u001b[33mwarning:\u001b[39m', false)).toBe('\\e[33mwarning:\\e[39m');
  });

  it('a server message that hides text shows its escapes, styled or not', () => {
    for (const tty of [true, false]) {
      const stdout = new Capture(tty);
      const stderr = new Capture(tty);
      const out = new Output({ stdout, stderr, env: { FORCE_COLOR: '1' }, json: false, noColor: false });
      out.error({ code: 'api_error', message: `400 from GET /x: ${CONCEAL}nothing to see`, exitCode: 5, hint: `${BLACK}hint` });
      out.line(`content ${CONCEAL}hidden`);
      expect(stderr.text).toContain('\\e[8mnothing to see');
      expect(stderr.text).toContain('\\e[30;40mhint');
      expect(RAW.test(stderr.text), JSON.stringify(stderr.text)).toBe(false);
      if (tty) expect(stdout.text).toContain('content \\e[8mhidden');
    }
    const piped = new Capture(false);
    const plain = new Output({ stdout: new Capture(false), stderr: piped, env: {}, json: false, noColor: false });
    plain.warn('\u001b[31mred from a server\u001b[39m');
    expect(piped.text).toBe('warning: \\e[31mred from a server\\e[39m\n');
  });

  it('on a terminal: tables, values and warnings; piped: data exact, messages still escaped', () => {
    for (const tty of [true, false]) {
      const stdout = new Capture(tty);
      const stderr = new Capture(tty);
      const out = new Output({ stdout, stderr, env: {}, json: false, noColor: false });
      out.table([{ header: 'NAME' }], [[`evil${TITLE}`]]);
      out.keyValues([['name', `x${CLEAR}`]]);
      out.warn(`line 3: unknown model ${JSON.stringify(`m${C1_CSI}`)}`);
      out.line(`plain ${TITLE}`);
      expect(RAW.test(stderr.text), `stderr (tty ${tty})`).toBe(false);
      if (tty) expect(RAW.test(stdout.text)).toBe(false);
      else expect(stdout.text).toContain(`plain ${TITLE}`);
    }
  });
});

describe('names from a server, printed on a terminal', () => {
  it('prompts list and get show control characters escaped', async () => {
    const names = [`evil${TITLE}`, `clear${CLEAR}`, `c1${C1_CSI}`];
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (/^\/api\/public\/v2\/prompts(\?|$)/.test(req.url ?? '')) {
        res.end(JSON.stringify({ data: names.map((name) => ({ name, type: 'text', versions: [1], labels: ['production'], tags: [`t${TITLE}`], lastUpdatedAt: '2026-01-01T00:00:00.000Z', lastConfig: {} })), meta: { page: 1, limit: 50, totalItems: 3, totalPages: 1 } }));
      } else {
        res.end(JSON.stringify({ name: 'x', version: 1, type: 'text', prompt: `hello ${CLEAR} ${CONCEAL}hidden ${BLACK}dark`, config: {}, labels: [`l${TITLE}`], tags: [], commitMessage: `msg${C1_CSI}` }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = isolatedEnv({ LANGFUSE_HOST: url, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1' });
    try {
      for (const args of [['prompts', 'list'], ['prompts', 'get', 'x'], ['prompts', 'list', '--json'], ['prompts', 'get', 'x', '--json']]) {
        const result = await runInProcess(args, { env, tty: true });
        expect(result.exitCode, args.join(' ')).toBe(0);
        expect(RAW.test(result.stdout + result.stderr), `${args.join(' ')}: ${JSON.stringify(result.stdout)}`).toBe(false);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('estimate --batch warnings do not echo raw input bytes', async () => {
    const lines = [`{"model": "m${TITLE}", "input": "hi"}`, `not json ${CLEAR}`, `{"model": 5, "id": "${C1_CSI}"}`].join('\n');
    const result = await runInProcess(['estimate', '--batch', '-'], { stdin: `${lines}\n` });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('line 2');
    expect(RAW.test(result.stderr)).toBe(false);
  });
});

describe('names the API cannot address', () => {
  it.each([['.'], ['..'], [' .. '], [`a${TITLE}`], ['tab\there'], [`c1${C1_CSI}`]])('%j is refused before anything is sent, with the reason', async (name) => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = isolatedEnv({ LANGFUSE_HOST: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1' });
    try {
      for (const args of [['prompts', 'create', name, '--text', 'hi'], ['prompts', 'get', name], ['prompts', 'delete', name, '--yes']]) {
        const result = await runInProcess(args, { env });
        expect(result.exitCode, args.join(' ')).toBe(2);
        expect(result.stderr).toMatch(/cannot be addressed in a URL|control characters/);
        expect(RAW.test(result.stderr)).toBe(false);
      }
      expect(requests).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
