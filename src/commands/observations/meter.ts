// Progress of a long read on stderr: items, pages and rate. On a terminal one line is redrawn;
// elsewhere (CI logs) a line is written every 30 seconds, so a long export shows it is alive
// without flooding the log. The last line says what was done, how long it took and how fast.
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { countOf } from '../../output/format.js';
import { formatInteger } from '../../core/thousands.js';

const LOG_EVERY_MS = 30_000;

export class Meter {
  private readonly started = performance.now();
  private readonly progress;
  private lastLog = performance.now();
  private items = 0;
  private pages = 0;

  constructor(
    private readonly ctx: Context,
    private readonly itemsBefore: number,
    private readonly pagesBefore: number,
    private readonly noun = 'observations',
  ) {
    this.progress = ctx.out.progress();
  }

  seconds(): number {
    return Math.round((performance.now() - this.started) / 10) / 100;
  }

  rate(): number {
    return Math.round(this.items / Math.max((performance.now() - this.started) / 1000, 0.001));
  }

  private text(): string {
    const total = this.itemsBefore + this.items;
    return `${formatInteger(total)} ${this.noun}, ${countOf(this.pagesBefore + this.pages, 'page')}, ${formatInteger(this.rate())}/s`;
  }

  page(items: number): void {
    this.items += items;
    this.pages++;
    if (this.ctx.out.stderrIsTTY) {
      this.progress.update(() => `reading: ${this.text()}`);
      return;
    }
    const now = performance.now();
    if (now - this.lastLog >= LOG_EVERY_MS) {
      this.lastLog = now;
      this.ctx.out.info(`… ${this.text()}`);
    }
  }

  /**
   * Says on stderr when the client waits before asking again (a 429's Retry-After can be two
   * minutes): without it a long export looks stuck.
   */
  announceRetries(client: ApiClient): void {
    client.onRetryWait = (wait) => {
      this.clear();
      const seconds = wait.delayMs >= 1000 ? `${Math.round(wait.delayMs / 1000)} s` : `${wait.delayMs} ms`;
      this.ctx.out.info(`${wait.reason}: asking again in ${seconds} (retry ${wait.attempt} of ${wait.retries}; ${this.text()} so far)`);
    };
  }

  clear(): void {
    this.progress.clear();
  }

  done(message: string): void {
    this.clear();
    this.ctx.out.info(`${message} in ${this.seconds().toFixed(1)} s (${formatInteger(this.rate())}/s)`);
  }
}
