// An application instrumented with the official Langfuse SDK (@langfuse/tracing with
// @langfuse/otel) sends a trace to `llmobs server`; the web UI lists it with its tokens and cost,
// and its page shows the tree, the chat input as messages, the usage and cost per usage type with
// the model definition and pricing tier that priced it, and downloads it as JSON. The cost is the
// one `llmobs estimate` gives for the same generation.
import { readFileSync } from 'node:fs';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { propagateAttributes, setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { openUi, type UiSession } from '../helpers/browser.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';

const USAGE = { input: 1200, output: 345 };

/** The UI's way of showing a cost (src/server/ui/app/format.ts). */
const shown = (usd: number) => (usd >= 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toPrecision(3)}`);

async function sendTrace(ui: UiSession): Promise<string> {
  const processor = new LangfuseSpanProcessor({ publicKey: ui.server.publicKey, secretKey: ui.server.secretKey, baseUrl: ui.server.url, exportMode: 'immediate' });
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  setLangfuseTracerProvider(provider);
  // propagateAttributes passes the trace's user, session and tags down the active context.
  const contexts = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contexts);
  try {
    const root = propagateAttributes({ userId: 'user-ui-1', sessionId: 'session-ui-1', tags: ['ui-test'] }, () => startObservation('answer-question', { input: { question: 'capital of Australia' } }));
    propagateAttributes({ userId: 'user-ui-1', sessionId: 'session-ui-1', tags: ['ui-test'] }, () => sendGeneration(root));
    root.update({ output: 'Canberra' }).end();
    await provider.forceFlush();
    return root.traceId;
  } finally {
    await provider.shutdown();
    setLangfuseTracerProvider(null);
    context.disable();
  }
}

function sendGeneration(root: ReturnType<typeof startObservation>): void {
  {
    const generation = root.startObservation(
      'chat',
      {
        model: 'gpt-4o',
        input: [
          { role: 'system', content: 'Answer in one word.' },
          { role: 'user', content: 'What is the capital of Australia?' },
        ],
        output: { role: 'assistant', content: 'Canberra' },
        usageDetails: USAGE,
      },
      { asType: 'generation' },
    );
    generation.end();
  }
}

describe('traces in the web UI', () => {
  it('shows a trace sent by the official SDK with its cost, as llmobs estimate prices it', async () => {
    const ui = await openUi();
    try {
      const traceId = await sendTrace(ui);
      // A score on the trace, as an evaluation sends it (the batch route takes scores in every mode).
      const scored = await fetch(`${ui.server.url}/api/public/ingestion`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${ui.server.publicKey}:${ui.server.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ batch: [{ id: 'score-event-1', type: 'score-create', timestamp: new Date().toISOString(), body: { id: 'score-1', traceId, name: 'helpfulness', value: 0.9, comment: 'short and right' } }] }),
      });
      expect(((await scored.json()) as { successes: unknown[] }).successes).toHaveLength(1);
      const estimate = JSON.parse((await execa(process.execPath, [BIN, 'estimate', '--model', 'gpt-4o', '--usage', JSON.stringify(USAGE), '--offline', '--json'], { env: ui.env, extendEnv: false })).stdout) as { totalCost: number; pricingTier: string };
      expect(estimate.totalCost).toBeGreaterThan(0);
      const { page } = ui;

      await page.getByRole('link', { name: 'Traces' }).click();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const row = page.getByRole('row', { name: /answer-question/ });
      await row.waitFor();
      const cells = await row.getByRole('cell').allInnerTexts();
      expect(cells).toContain('user-ui-1');
      expect(cells).toContain('session-ui-1');
      expect(cells).toContain('1,545');
      expect(cells).toContain(shown(estimate.totalCost));

      // The filter narrows the list; another user has none.
      await page.getByLabel('User').fill('someone-else');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No traces match.').waitFor();
      await page.getByLabel('User').fill('user-ui-1');
      await page.getByRole('button', { name: 'Apply filters' }).click();

      await page.getByRole('row', { name: /answer-question/ }).waitFor();

      // Export of the current filter.
      const save = async (name: string) => {
        const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name, exact: true }).click()]);
        return readFileSync((await file.path())!, 'utf8');
      };
      const csv = (await save('CSV')).trim().split('\n');
      expect(csv[0]).toBe('id,timestamp,name,userId,sessionId,environment,tags,latency,totalTokens,totalCost');
      expect(csv.slice(1)).toHaveLength(1);
      expect(csv[1]).toContain(`${traceId},`);
      expect(csv[1]).toContain(`,1545,${estimate.totalCost}`);
      const jsonl = (await save('JSONL')).trim().split('\n').map((line) => JSON.parse(line) as { id: string; totalCost: number; userId: string });
      expect(jsonl).toMatchObject([{ id: traceId, totalCost: estimate.totalCost, userId: 'user-ui-1' }]);
      expect(JSON.parse(await save('JSON'))).toEqual(jsonl);

      await page.getByRole('link', { name: 'answer-question' }).click();
      await page.getByRole('heading', { name: 'answer-question' }).waitFor();
      expect(await page.getByTestId('trace-total-cost').innerText()).toBe(shown(estimate.totalCost));

      const scores = page.getByRole('region', { name: 'Scores' });
      expect(await scores.getByRole('row', { name: /helpfulness/ }).getByRole('cell').allInnerTexts()).toEqual(['helpfulness', '0.9', 'API', 'short and right']);

      await page.getByRole('treeitem', { name: /chat/ }).click();
      const messages = page.getByRole('region', { name: 'Input' });
      await messages.getByText('What is the capital of Australia?').waitFor();
      expect(await messages.locator('.role').allInnerTexts()).toEqual(['SYSTEM', 'USER']);
      const usage = page.getByRole('region', { name: 'Usage and cost' });
      await usage.getByRole('link', { name: 'gpt-4o' }).waitFor();
      await usage.getByText(`pricing tier ${estimate.pricingTier}`, { exact: false }).waitFor();
      const inputRow = await usage.getByRole('row', { name: /^input/ }).getByRole('cell').allInnerTexts();
      expect(inputRow[1]).toBe('1,200');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as JSON' }).click()]);
      const saved = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { id: string; observations: Array<{ name: string }> };
      expect(saved.id).toBe(traceId);
      expect(saved.observations.map((o) => o.name)).toContain('chat');

      // The observations list, filtered to generations, and its export.
      await page.getByRole('link', { name: 'Observations' }).click();
      await page.getByLabel('Type').selectOption('GENERATION');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const observations = page.getByRole('table', { name: 'Observations' });
      const generation = observations.getByRole('row', { name: /chat/ });
      await generation.waitFor();
      // The span is gone once the filter applies.
      await observations.getByRole('row', { name: /answer-question/ }).waitFor({ state: 'detached' });
      const generationCells = await generation.getByRole('cell').allInnerTexts();
      expect(generationCells.slice(1, 5)).toEqual(['GENERATION', 'chat', 'gpt-4o', 'user-ui-1']);
      expect(generationCells[8]).toBe(shown(estimate.totalCost));
      expect(await observations.getByRole('row').count()).toBe(2);
      const exported = (await save('JSONL')).trim().split('\n').map((line) => JSON.parse(line) as { name: string; type: string; totalCost: number; traceId: string });
      expect(exported).toMatchObject([{ name: 'chat', type: 'GENERATION', totalCost: estimate.totalCost, traceId }]);
    } finally {
      await ui.close();
    }
  }, 120_000);

  it('lists and shows a trace, and the cost, from a data directory on disk after a restart', async () => {
    const env = isolatedEnv();
    const dataDir = tempDir('llmobs-ui-data-');
    const first = await openUi([], { dataDir, env });
    let traceId: string;
    try {
      expect(first.server.dataDir).toBe(dataDir);
      traceId = await sendTrace(first);
      await first.page.getByRole('link', { name: 'Traces' }).click();
      await first.page.getByRole('row', { name: /answer-question/ }).waitFor();
    } finally {
      await first.close();
    }
    const ui = await openUi([], { dataDir, env });
    try {
      const { page } = ui;
      await page.getByRole('link', { name: 'Traces' }).click();
      const row = page.getByRole('row', { name: /answer-question/ });
      await row.waitFor();
      expect(await row.getByRole('cell').allInnerTexts()).toContain('user-ui-1');
      await row.getByRole('link', { name: 'answer-question' }).click();
      await page.getByRole('heading', { name: 'answer-question' }).waitFor();
      expect(page.url()).toContain(traceId);
      await page.getByRole('treeitem', { name: /chat/ }).click();
      await page.getByRole('region', { name: 'Input' }).getByText('What is the capital of Australia?').waitFor();
      await page.getByRole('region', { name: 'Usage and cost' }).getByRole('link', { name: 'gpt-4o' }).waitFor();

      // The cost page: on disk its metrics query runs on the store's read thread.
      const estimate = JSON.parse((await execa(process.execPath, [BIN, 'estimate', '--model', 'gpt-4o', '--usage', JSON.stringify(USAGE), '--offline', '--json'], { env: ui.env, extendEnv: false })).stdout) as { totalCost: number };
      const today = new Date().toISOString().slice(0, 10);
      await page.getByRole('link', { name: 'Cost' }).click();
      await page.getByLabel('From').fill(new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10));
      await page.getByLabel('To').fill(new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10));
      await page.getByRole('button', { name: 'Show cost' }).click();
      await page.getByRole('img', { name: 'Cost per day and model' }).waitFor();
      expect(await page.getByTestId('cost-total').innerText()).toBe(shown(estimate.totalCost));
    } finally {
      await ui.close();
    }
  }, 120_000);
});
