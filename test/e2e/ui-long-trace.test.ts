// A trace with more observations than its page loads at once: the page shows the first 1,000 by
// start time, says how many it leaves out, loads the rest on request, and downloads the whole
// trace as JSON. The page never asks for the whole trace to draw it, and the server sends that
// download in slices.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openUi } from '../helpers/browser.js';

const COUNT = 1_050;

describe('a long trace in the web UI', () => {
  it('shows the first 1,000 observations with a notice, loads the rest, and downloads it whole', async () => {
    const ui = await openUi(['--write-mode', 'dual']);
    try {
      const auth = `Basic ${Buffer.from(`${ui.server.publicKey}:${ui.server.secretKey}`).toString('base64')}`;
      const start = Date.now() - 60_000;
      const at = (ms: number) => new Date(start + ms).toISOString();
      const events: unknown[] = [{ id: 'e-trace', type: 'trace-create', timestamp: at(0), body: { id: 'long-trace', name: 'long-run', timestamp: at(0) } }];
      events.push({ id: 'e-root', type: 'span-create', timestamp: at(0), body: { id: 'root', traceId: 'long-trace', name: 'run', startTime: at(0), endTime: at(COUNT) } });
      for (let i = 1; i < COUNT; i++) {
        events.push({ id: `e-${i}`, type: 'span-create', timestamp: at(i), body: { id: `step-${i}`, traceId: 'long-trace', parentObservationId: 'root', name: `step-${i}`, startTime: at(i), endTime: at(i + 1) } });
      }
      for (let from = 0; from < events.length; from += 500) {
        const response = await fetch(`${ui.server.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ batch: events.slice(from, from + 500) }) });
        expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([]);
      }

      const { page } = ui;
      const asked: string[] = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname + new URL(request.url()).search));
      await page.goto(new URL('/#/traces/long-trace', ui.server.uiUrl).href);
      const notice = page.getByTestId('observations-notice');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('Showing the first 1,000 of 1,050 observations by start time; 50 not shown.');
      const tree = page.getByRole('tree', { name: 'Observations' });
      // The trace's own row, then its observations.
      expect(await tree.getByRole('treeitem').count()).toBe(1 + 1000);
      expect(await tree.getByRole('treeitem', { name: /step-999\b/ }).count()).toBe(1);
      expect(await tree.getByRole('treeitem', { name: /step-1000\b/ }).count()).toBe(0);
      // The trace itself was asked for without its observations.
      const traceReads = asked.filter((path) => path.startsWith('/api/public/traces/long-trace'));
      expect(traceReads.length).toBeGreaterThan(0);
      expect(traceReads.every((path) => path.includes('fields=') && !/fields=[^&]*observations/.test(decodeURIComponent(path)))).toBe(true);

      await notice.getByRole('button', { name: 'Load 50 more' }).click();
      await tree.getByRole('treeitem', { name: /step-1049\b/ }).waitFor();
      expect(await tree.getByRole('treeitem').count()).toBe(1 + COUNT);
      expect(await page.getByTestId('observations-notice').count()).toBe(0);
      await tree.getByRole('treeitem', { name: /step-1049\b/ }).click();
      await page.getByRole('heading', { name: /step-1049/ }).waitFor();

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as JSON' }).click()]);
      const whole = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { id: string; observations: Array<{ id: string }> };
      expect(whole.id).toBe('long-trace');
      expect(whole.observations).toHaveLength(COUNT);

      // That download is the server's sliced answer: chunked, with no length known up front.
      const cookies = await ui.context.cookies();
      const origin = new URL(ui.server.uiUrl).origin;
      const direct = await fetch(`${origin}/api/public/traces/long-trace`, { headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') } });
      expect(direct.status).toBe(200);
      expect(direct.headers.get('transfer-encoding')).toBe('chunked');
      expect(direct.headers.get('content-length')).toBeNull();
      expect(((await direct.json()) as { observations: unknown[] }).observations).toHaveLength(COUNT);
    } finally {
      await ui.close();
    }
  }, 180_000);
});
