// The web UI's front door, over plain HTTP: the one-time link, the session cookie, the Host
// check, same-origin writes and the headers; and its first page in a real browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN } from '../helpers/bin.js';
import { openUi } from '../helpers/browser.js';
import { isolatedEnv } from '../helpers/cli.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface UiStart {
  url: string;
  uiUrl: string;
}

describe('the web UI over HTTP', () => {
  let server: ServerProcess;
  let started: UiStart;
  let origin: string;
  let cookie: string;

  beforeAll(async () => {
    server = startServerProcess(['--ephemeral'], isolatedEnv());
    started = (await server.ready) as unknown as UiStart;
    origin = new URL(started.uiUrl).origin;
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.child;
  });

  it('is on its own port, and serves nothing without the session', async () => {
    expect(new URL(started.uiUrl).port).not.toBe(new URL(started.url).port);
    for (const path of ['/', '/app.js', '/app.css', '/api/public/models', '/ui/api/traces']) {
      const response = await fetch(`${origin}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(401);
      expect(await response.text()).not.toContain('<script');
    }
    // The API's own port does not serve the UI.
    expect((await fetch(`${started.url}/`)).status).toBe(404);
  });

  it('turns the one-time token into an HttpOnly, SameSite=Strict cookie, once', async () => {
    const wrong = await fetch(`${origin}/?token=nope`, { redirect: 'manual' });
    expect(wrong.status).toBe(403);
    const first = await fetch(started.uiUrl, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    cookie = setCookie.split(';')[0]!;
    const again = await fetch(started.uiUrl, { redirect: 'manual' });
    expect(again.status).toBe(403);
    const page = await fetch(`${origin}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/app.js"></script>');
  });

  it('sends a Content-Security-Policy without inline script, and no page has one', async () => {
    const response = await fetch(`${origin}/`, { headers: { cookie } });
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await response.text()).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('answers only to its own host name (DNS rebinding)', async () => {
    const port = new URL(origin).port;
    // fetch() sets Host itself: node:http sends the one given.
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        request(`${origin}/`, { headers: { cookie, host } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    expect(await status(`attacker.example:${port}`)).toBe(421);
    expect(await status(`127.0.0.1.attacker.example:${port}`)).toBe(421);
    expect(await status(`localhost:${port}`)).toBe(200);
  });

  it('takes a change only with the session and from its own origin', async () => {
    const body = JSON.stringify({ modelName: 'ui-origin-check', matchPattern: '(?i)^ui-origin-check$', unit: 'TOKENS', inputPrice: 1 });
    const headers = { cookie, 'content-type': 'application/json' };
    expect((await fetch(`${origin}/api/public/models`, { method: 'POST', headers, body })).status).toBe(403);
    expect((await fetch(`${origin}/api/public/models`, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body })).status).toBe(403);
    expect((await fetch(`${origin}/api/public/models`, { method: 'POST', headers: { ...headers, origin, 'sec-fetch-site': 'cross-site' }, body })).status).toBe(403);
    expect((await fetch(`${origin}/api/public/models`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body })).status).toBe(401);
    const created = await fetch(`${origin}/api/public/models`, { method: 'POST', headers: { ...headers, origin }, body });
    expect(created.status).toBe(200);
    // Nothing but definitions and prompts is written through the UI.
    expect((await fetch(`${origin}/api/public/ingestion`, { method: 'POST', headers: { ...headers, origin }, body: '{"batch":[]}' })).status).toBe(405);
  });

  it('keeps its pages under 200 KB gzipped', () => {
    const dir = join(import.meta.dirname, '..', '..', 'dist', 'ui');
    const size = ['index.html', 'app.js', 'app.css'].reduce((sum, name) => sum + gzipSync(readFileSync(join(dir, name))).length, 0);
    expect(size).toBeLessThan(200 * 1024);
  });
});

describe('the web UI on the start lines', () => {
  it('prints its address with the token, which opens the UI', async () => {
    const child = execa(process.execPath, [BIN, 'server', '--port', '0', '--ephemeral'], { env: isolatedEnv(), extendEnv: false, reject: false });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const found = /^ {2}Web UI\s+(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(text);
          if (found) resolve(found[1]!);
        });
        child.on('exit', () => reject(new Error(`exited before printing the UI's address: ${text}`)));
      });
      const opened = await fetch(address, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      expect(opened.headers.get('set-cookie')).toMatch(/^llmobs_ui_\d+=/);
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  });

  it('has none with --no-ui', async () => {
    const server = startServerProcess(['--ephemeral', '--no-ui'], isolatedEnv());
    try {
      expect(((await server.ready) as unknown as { uiUrl: unknown }).uiUrl).toBeNull();
    } finally {
      server.child.kill('SIGTERM');
      await server.child;
    }
  });
});

describe('the web UI in a browser', () => {
  it('opens from the printed link, with no console error and no request off the machine', async () => {
    const ui = await openUi();
    try {
      await ui.page.getByRole('link', { name: 'Traces' }).waitFor();
      await expect(ui.page.getByRole('heading', { name: 'Traces' }).isVisible()).resolves.toBe(true);
      await ui.page.getByText('No traces match.').waitFor();
    } finally {
      await ui.close();
    }
  });
});
