// The web UI in a real browser: the built `llmobs server` with its UI, and Debian's chromium
// driven by playwright-core (never a downloaded browser). A test fails on any console error or
// uncaught page error, and on any request that would leave the machine (it is refused).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import { isolatedEnv } from './cli.js';
import { type ServerProcess, type Started, startServerProcess } from './server-process.js';

/** Where chromium is: LLMOBS_CHROMIUM, else Debian's package. */
export function chromiumPath(): string {
  const path = process.env.LLMOBS_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => existsSync(candidate));
  if (!path || !existsSync(path)) throw new Error('chromium is not installed: apt-get install -y chromium (or set LLMOBS_CHROMIUM)');
  return path;
}

export interface UiStarted extends Started {
  uiUrl: string;
}

export interface UiSession {
  server: UiStarted;
  /** The environment of the server's process: the CLI run with it talks to this server. */
  env: Record<string, string | undefined>;
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors and refused requests so far. */
  problems: string[];
  /**
   * Declares one console error the test causes on purpose (the browser logs every error answer
   * to a request, e.g. a 409 the page shows): it is taken off the problems once, at the end.
   */
  expectConsoleError(pattern: RegExp): void;
  /** Checks that nothing went wrong in the page, then stops the browser and the server. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A browser logged in to a new server's UI (through its one-time URL): an ephemeral one, or one
 * on `dataDir` (with `env`, to start it again as the same user).
 */
export async function openUi(args: string[] = [], onDisk?: { dataDir: string; env?: Record<string, string | undefined> }): Promise<UiSession> {
  const env = onDisk?.env ?? isolatedEnv();
  const process: ServerProcess = startServerProcess([...(onDisk ? ['--data-dir', onDisk.dataDir] : ['--ephemeral']), ...args], env);
  const server = (await process.ready) as UiStarted;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const context = await browser.newContext({ acceptDownloads: true });
    context.setDefaultTimeout(30_000);
    const problems: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !LOOPBACK.has(url.hostname)) {
        problems.push(`request off the machine: ${route.request().url()}`);
        return route.abort();
      }
      return route.continue();
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(server.uiUrl);
    const opened = browser;
    const expected: RegExp[] = [];
    return {
      server,
      env: { ...env, LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.publicKey, LANGFUSE_SECRET_KEY: server.secretKey },
      page,
      context,
      problems,
      expectConsoleError(pattern) {
        expected.push(pattern);
      },
      async close() {
        try {
          const left = [...problems];
          for (const pattern of expected) {
            const at = left.findIndex((problem) => problem.startsWith('console error: ') && pattern.test(problem));
            expect(at, `an expected console error ${pattern}`).toBeGreaterThanOrEqual(0);
            left.splice(at, 1);
          }
          expect(left).toEqual([]);
        } finally {
          await opened.close();
          process.child.kill('SIGTERM');
          await process.child;
        }
      },
    };
  } catch (error) {
    await browser?.close();
    process.child.kill('SIGTERM');
    await process.child;
    throw error;
  }
}
