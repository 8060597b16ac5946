// A second browser on a running server: `llmobs server link` asks the server of the profile for a
// new one-time link (with the project's key), which logs that browser in once and carries no key.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { openUi } from '../helpers/browser.js';
import { isolatedEnv } from '../helpers/cli.js';
import { startServerProcess } from '../helpers/server-process.js';

describe('llmobs server link', () => {
  it('prints a new one-time link that logs a second browser in once, without printing a key', async () => {
    const ui = await openUi(['--profile', 'local']);
    try {
      // The saved profile, not the keys in the environment: as a user in another terminal runs it.
      const { LANGFUSE_HOST, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY, ...env } = ui.env;
      const linked = await execa(process.execPath, [BIN, 'server', 'link'], { env, extendEnv: false, reject: false });
      expect(linked.exitCode, linked.stderr).toBe(0);
      const url = linked.stdout.trim();
      const origin = new URL(ui.server.uiUrl).origin;
      expect(url).toMatch(new RegExp(`^${origin.replaceAll('.', '\\.')}/\\?token=[\\w-]{32}$`));
      expect(url).not.toBe(ui.server.uiUrl);
      for (const output of [linked.stdout, linked.stderr]) {
        expect(output).not.toContain(ui.server.secretKey);
        expect(output).not.toContain(ui.server.publicKey);
      }

      // A second browser (no cookie) gets in with it, once.
      const browser = ui.context.browser()!;
      const second = await browser.newContext();
      try {
        const page = await second.newPage();
        await page.goto(url);
        await page.getByRole('link', { name: 'Model Definitions' }).click();
        await page.getByRole('cell', { name: 'gpt-4o', exact: true }).waitFor();
      } finally {
        await second.close();
      }
      const third = await browser.newContext();
      try {
        const page = await third.newPage();
        const answer = await page.goto(url);
        expect(answer?.status()).toBe(403);
        expect(await page.locator('body').innerText()).toContain('llmobs server link');
      } finally {
        await third.close();
      }

      // Each run gives a link of its own; --json has it as `url`.
      const json = await execa(process.execPath, [BIN, 'server', 'link', '--json'], { env, extendEnv: false, reject: false });
      expect(json.exitCode, json.stderr).toBe(0);
      const fresh = (JSON.parse(json.stdout) as { url: string }).url;
      expect(fresh).not.toBe(url);
      expect((await fetch(fresh, { redirect: 'manual' })).status).toBe(303);

      // Another key gets no link.
      const wrong = await execa(process.execPath, [BIN, 'server', 'link'], { env: { ...env, LANGFUSE_HOST, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY: 'sk-lf-wrong' }, extendEnv: false, reject: false });
      expect(wrong.exitCode).not.toBe(0);
      expect(wrong.stdout).toBe('');
      expect(wrong.stderr).not.toContain('token=');
    } finally {
      await ui.close();
    }
  }, 120_000);

  it('says so when the server runs without its web UI, or is not llmobs server', async () => {
    const env = isolatedEnv();
    const server = startServerProcess(['--ephemeral', '--no-ui'], env);
    try {
      const started = await server.ready;
      const keys = { LANGFUSE_HOST: started.url, LANGFUSE_PUBLIC_KEY: started.publicKey, LANGFUSE_SECRET_KEY: started.secretKey };
      const result = await execa(process.execPath, [BIN, 'server', 'link'], { env: { ...env, ...keys }, extendEnv: false, reject: false });
      expect(result.exitCode).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('without its web UI');
      expect(result.stderr).toContain('--no-ui');
      expect(result.stderr).not.toContain(started.secretKey);
      // A server that is not llmobs server (no such route): the hint says to point elsewhere.
      const other = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Route not found"}'));
      await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
      try {
        const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
        const notOurs = await execa(process.execPath, [BIN, 'server', 'link'], { env: { ...env, ...keys, LANGFUSE_HOST: elsewhere }, extendEnv: false, reject: false });
        expect(notOurs.exitCode).not.toBe(0);
        expect(notOurs.stderr).toContain(`${elsewhere} is not an llmobs server`);
      } finally {
        other.close();
      }
      const flag = await execa(process.execPath, [BIN, 'server', 'link', '--port', '3100'], { env: { ...env, ...keys }, extendEnv: false, reject: false });
      expect(flag.exitCode).toBe(2);
      expect(flag.stderr).toContain('--port: a flag of llmobs server');
    } finally {
      server.child.kill('SIGTERM');
      await server.child;
    }
  }, 60_000);
});
