// The web UI reads every page whatever write mode the server answers clients in: a server in
// legacy mode (no v2 observations or metrics for clients) still shows its traces, observations
// and cost, here sent by the legacy batch route.
import { describe, expect, it } from 'vitest';
import { openUi } from '../helpers/browser.js';

describe('the web UI of a server in legacy mode', () => {
  it('shows traces, observations and cost', async () => {
    const ui = await openUi(['--write-mode', 'legacy']);
    try {
      const now = new Date().toISOString();
      const response = await fetch(`${ui.server.url}/api/public/ingestion`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${ui.server.publicKey}:${ui.server.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          batch: [
            { id: 'e1', type: 'trace-create', timestamp: now, body: { id: 'legacy-trace', name: 'legacy-job', timestamp: now } },
            { id: 'e2', type: 'generation-create', timestamp: now, body: { id: 'legacy-gen', traceId: 'legacy-trace', name: 'legacy-call', startTime: now, endTime: now, model: 'gpt-4o', usageDetails: { input: 2000, output: 100 } } },
          ],
        }),
      });
      expect(response.status).toBe(207);
      expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([]);
      // Clients of this server get no v2 observations; the UI still reads them.
      expect((await fetch(`${ui.server.url}/api/public/v2/observations`, { headers: { authorization: `Basic ${Buffer.from(`${ui.server.publicKey}:${ui.server.secretKey}`).toString('base64')}` } })).status).toBe(404);

      const { page } = ui;
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('row', { name: /legacy-job/ }).waitFor();
      await page.getByRole('link', { name: 'Observations' }).click();
      await page.getByRole('table', { name: 'Observations' }).getByRole('row', { name: /legacy-call/ }).waitFor();
      await page.getByRole('link', { name: 'Cost' }).click();
      await page.getByRole('table', { name: 'Cost per model' }).getByRole('row', { name: /gpt-4o/ }).waitFor();
      expect(await page.getByTestId('cost-total').innerText()).toMatch(/^\$0\.\d+/);
    } finally {
      await ui.close();
    }
  }, 120_000);
});
