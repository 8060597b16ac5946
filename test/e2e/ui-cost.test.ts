// The cost page: cost per day and per model, the numbers of `llmobs cost report --by model
// --time day` for the same range (both from the same metrics query and core).
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { openUi, type UiSession } from '../helpers/browser.js';

const shown = (usd: number) => (usd === 0 ? '$0' : usd >= 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toPrecision(3)}`);

async function sendGenerations(ui: UiSession): Promise<void> {
  const processor = new LangfuseSpanProcessor({ publicKey: ui.server.publicKey, secretKey: ui.server.secretKey, baseUrl: ui.server.url, exportMode: 'immediate' });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  setLangfuseTracerProvider(provider);
  try {
    const root = startObservation('batch');
    for (const [model, input, output] of [['gpt-4o', 40_000, 2_000], ['gpt-4o-mini', 900_000, 30_000], ['gpt-4o', 1_000, 500]] as const) {
      root.startObservation('call', { model, usageDetails: { input, output } }, { asType: 'generation' }).end();
    }
    root.end();
    await provider.forceFlush();
  } finally {
    await provider.shutdown();
    setLangfuseTracerProvider(null);
  }
}

describe('cost in the web UI', () => {
  it('shows cost per model and day as llmobs cost report does', async () => {
    const ui = await openUi();
    try {
      // Today and tomorrow (UTC): the generations are in the range even when sent at midnight.
      const today = new Date().toISOString().slice(0, 10);
      await sendGenerations(ui);
      const tomorrow = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10);
      const dayAfter = new Date(Date.parse(today) + 2 * 86_400_000).toISOString().slice(0, 10);
      const result = await execa(process.execPath, [BIN, 'cost', 'report', '--by', 'model,day', '--from', today, '--to', dayAfter, '--no-cache', '--json'], { env: ui.env, extendEnv: false, reject: false });
      expect(result.exitCode, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as { total: { cost: number }; groups: Array<{ group: { model: string }; cost: number; count: number }> };
      expect(report.groups.map((g) => g.group.model).sort()).toEqual(['gpt-4o', 'gpt-4o-mini']);

      const { page } = ui;
      await page.getByRole('link', { name: 'Cost' }).click();
      await page.getByLabel('From').fill(today);
      await page.getByLabel('To').fill(tomorrow);
      await page.getByRole('button', { name: 'Show cost' }).click();
      await page.getByRole('img', { name: 'Cost per day and model' }).waitFor();
      expect(await page.getByTestId('cost-total').innerText()).toBe(shown(report.total.cost));
      const table = page.getByRole('table', { name: 'Cost per model' });
      for (const group of report.groups) {
        const cells = await table.getByRole('row', { name: new RegExp(`^\\s*${group.group.model.replace(/[.-]/g, '\\$&')}\\s`) }).getByRole('cell').allInnerTexts();
        expect(cells[1]).toBe(shown(group.cost));
        expect(cells[5]).toBe(String(group.count));
      }
      // A bar in two colours (two models), or more if the day turned while sending.
      const fills = await page.locator('svg.chart rect').evaluateAll((rects) => rects.map((rect) => rect.ownerDocument.defaultView!.getComputedStyle(rect).fill));
      expect(new Set(fills).size).toBeGreaterThanOrEqual(2);

      // The y axis: its unit, and dollar ticks from $0 evenly up to at least the highest day, whose
      // bar is as tall against the ticks' lines as its cost is against their values.
      const axis = page.getByTestId('cost-axis');
      expect(await axis.getByText('Cost (USD)').isVisible()).toBe(true);
      const ticks = await axis.locator('g').evaluateAll((groups) => groups.map((g) => ({ label: g.querySelector('text')!.textContent!, y: Number(g.querySelector('line')!.getAttribute('y1')) })));
      const values = ticks.map((tick) => Number(tick.label.replace(/^\$/, '').replaceAll(',', '')));
      expect(ticks.every((tick) => /^\$\d[\d,]*\.\d{2,}$/.test(tick.label))).toBe(true);
      expect(values[0]).toBe(0);
      const step = values[1]! - values[0]!;
      expect(values.every((value, i) => Math.abs(value - i * step) < step * 1e-6)).toBe(true);
      const byDay = new Map<string, number>();
      for (const group of report.groups) {
        const key = JSON.stringify(Object.entries(group.group).filter(([name]) => name !== 'model'));
        byDay.set(key, (byDay.get(key) ?? 0) + group.cost);
      }
      const highest = Math.max(...byDay.values());
      const top = values.at(-1)!;
      expect(top).toBeGreaterThanOrEqual(highest);
      expect(top - step).toBeLessThan(highest);
      const barHeights = await page.locator('svg.chart > g:not([data-testid])').evaluateAll((bars) => bars.map((bar) => [...bar.querySelectorAll('rect')].reduce((sum, rect) => sum + Number(rect.getAttribute('height')), 0)));
      const plotHeight = ticks[0]!.y - ticks.at(-1)!.y;
      expect(Math.max(...barHeights)).toBeCloseTo((highest / top) * plotHeight, 1);
    } finally {
      await ui.close();
    }
  }, 120_000);
});
