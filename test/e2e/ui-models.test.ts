// Model definitions in the web UI: one made with the form (two pricing tiers, a usage condition)
// is what `llmobs models get` returns; "Test model match" answers as `llmobs estimate` does for
// the same name and usage; a Langfuse-maintained definition is cloned, a project one edited and
// deleted.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { openUi, type UiSession } from '../helpers/browser.js';

async function cli(ui: UiSession, args: string[]): Promise<unknown> {
  const result = await execa(process.execPath, [BIN, ...args, '--json'], { env: ui.env, extendEnv: false, reject: false });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
}

describe('model definitions in the web UI', () => {
  it('creates a definition with tiers that llmobs models get returns, and tests a match like llmobs estimate', async () => {
    const ui = await openUi();
    try {
      const { page } = ui;
      await page.getByRole('link', { name: 'Model Definitions' }).click();
      await page.getByRole('cell', { name: 'gpt-4o', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add model definition' }).click();
      const form = page.getByRole('form', { name: 'Add model definition' });
      await form.getByLabel('Model name').fill('acme-chat');
      await form.getByLabel('Match pattern').fill('(?i)^(acme/)?acme-chat(-\\d+)?$');
      await form.getByLabel('Tokenizer', { exact: true }).selectOption('openai');
      await form.getByLabel('Tokenizer config (JSON)').fill('{"tokenizerModel": "gpt-4o"}');
      await form.getByLabel('Usage types (comma-separated)').fill('input, output');
      const standard = form.getByRole('group', { name: 'Pricing tier Standard' });
      await standard.getByLabel('input price per 1M units').fill('2.5');
      await standard.getByLabel('output price per 1M units').fill('10');
      await form.getByRole('button', { name: 'Add pricing tier' }).click();
      const large = form.getByRole('group', { name: 'Pricing tier Tier 2' });
      await large.getByLabel('Tier name').fill('Large context');
      const largeTier = form.getByRole('group', { name: 'Pricing tier Large context' });
      await largeTier.getByLabel('Priority').fill('1');
      await largeTier.getByLabel('input price per 1M units').fill('5');
      await largeTier.getByLabel('output price per 1M units').fill('20');
      const condition = largeTier.getByRole('group', { name: 'Condition 1' });
      await condition.getByLabel('Usage type pattern').fill('^input$');
      await condition.getByLabel('Operator').selectOption({ label: '>' });
      await condition.getByLabel('Value').fill('200000');
      await form.getByRole('button', { name: 'Save model definition' }).click();
      await page.getByRole('status').getByText('Saved "acme-chat".').waitFor();

      const got = (await cli(ui, ['models', 'get', 'acme-chat'])) as Record<string, unknown>;
      expect(got).toMatchObject({
        modelName: 'acme-chat',
        matchPattern: '(?i)^(acme/)?acme-chat(-\\d+)?$',
        unit: 'TOKENS',
        tokenizerId: 'openai',
        tokenizerConfig: { tokenizerModel: 'gpt-4o' },
        isLangfuseManaged: false,
        pricingTiers: [
          { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.0000025, output: 0.00001 } },
          { name: 'Large context', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: '^input$', operator: 'gt', value: 200000, caseSensitive: false }], prices: { input: 0.000005, output: 0.00002 } },
        ],
      });

      // Test model match, against llmobs estimate with the project's definitions.
      const usage = { input: 250000, output: 1000 };
      const estimate = (await cli(ui, ['estimate', '--model', 'acme/acme-chat-2', '--usage', JSON.stringify(usage), '--remote'])) as { totalCost: number; pricingTier: string; matchedModel: { id: string } };
      expect(estimate.pricingTier).toBe('Large context');
      await page.getByRole('button', { name: 'Test model match' }).click();
      const test = page.getByRole('form', { name: 'Test model match' });
      await test.getByLabel('Model name').fill('acme/acme-chat-2');
      await test.getByLabel('Usage details (JSON)').fill(JSON.stringify(usage));
      await test.getByRole('button', { name: 'Test', exact: true }).click();
      const result = test.getByRole('region', { name: 'Match result' });
      await result.getByRole('link', { name: 'acme-chat' }).waitFor();
      expect(await result.getByTestId('matched-tier').innerText()).toBe(estimate.pricingTier);
      const cost = estimate.totalCost;
      expect(await result.getByTestId('matched-cost').innerText()).toBe(cost >= 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toPrecision(3)}`);
      await test.getByLabel('Model name').fill('no-such-model-anywhere');
      await test.getByRole('button', { name: 'Test', exact: true }).click();
      await result.getByRole('heading', { name: 'No match' }).waitFor();
      await test.getByRole('button', { name: 'Close' }).click();

      // Search, edit, delete.
      await page.getByLabel('Search').fill('acme');
      await page.getByRole('button', { name: 'Edit acme-chat' }).click();
      const edit = page.getByRole('form', { name: 'Edit acme-chat' });
      await edit.getByRole('group', { name: 'Pricing tier Standard' }).getByLabel('output price per 1M units').fill('12');
      await edit.getByRole('button', { name: 'Save model definition' }).click();
      await page.getByRole('status').getByText('Saved "acme-chat".').waitFor();
      expect(((await cli(ui, ['models', 'get', 'acme-chat'])) as { pricingTiers: Array<{ prices: Record<string, number> }> }).pricingTiers[0]!.prices).toEqual({ input: 0.0000025, output: 0.000012 });
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete acme-chat' }).click();
      await page.getByText('Deleted "acme-chat".').waitFor();
      const gone = await execa(process.execPath, [BIN, 'models', 'get', 'acme-chat', '--json'], { env: ui.env, extendEnv: false, reject: false });
      expect(gone.exitCode).not.toBe(0);
      expect(gone.stderr).toContain('acme-chat');
    } finally {
      await ui.close();
    }
  }, 180_000);

  it('shows when a model was last used: the start of its latest generation, empty for one never used', async () => {
    const ui = await openUi(['--write-mode', 'dual']);
    try {
      const { page, server } = ui;
      await cli(ui, ['models', 'create', '--name', 'acme-used', '--price', 'input=1/1M']);
      await cli(ui, ['models', 'create', '--name', 'acme-unused', '--price', 'input=1/1M']);
      const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
      const generation = (id: string, minute: number) => ({ id: `event-${id}`, type: 'generation-create', timestamp: at(minute), body: { id, traceId: 'trace-1', model: 'acme-used', startTime: at(minute), usageDetails: { input: 100 } } });
      const answer = await fetch(`${server.url}/api/public/ingestion`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ batch: [generation('g-late', 42), generation('g-early', 7)] }),
      });
      expect(answer.status).toBe(207);
      expect(((await answer.json()) as { errors: unknown[] }).errors).toEqual([]);

      await page.getByRole('link', { name: 'Model Definitions' }).click();
      await page.getByLabel('Search').fill('acme');
      const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
      await row('acme-used').waitFor();
      const shown = await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' }), at(42));
      await expect.poll(() => row('acme-used').getByTestId('last-used').innerText()).toBe(shown);
      expect(await row('acme-unused').getByTestId('last-used').innerText()).toBe('');
      expect(await page.getByRole('columnheader', { name: 'Last used' }).getAttribute('title')).toBe('Start time of the latest generation using this model');
    } finally {
      await ui.close();
    }
  }, 120_000);

  it('clones a Langfuse-maintained definition into the project', async () => {
    const ui = await openUi();
    try {
      const { page } = ui;
      await page.getByRole('link', { name: 'Model Definitions' }).click();
      await page.getByLabel('Search').fill('gpt-4o-mini');
      await page.getByRole('button', { name: 'Clone gpt-4o-mini', exact: true }).click();
      const form = page.getByRole('form', { name: 'Clone gpt-4o-mini' });
      await form.getByLabel('Model name').fill('gpt-4o-mini-discounted');
      await form.getByLabel('Match pattern').fill('(?i)^gpt-4o-mini-discounted$');
      await form.getByRole('button', { name: 'Save model definition' }).click();
      await page.getByRole('status').getByText('Saved "gpt-4o-mini-discounted".').waitFor();
      const builtIn = (await cli(ui, ['models', 'get', 'gpt-4o-mini'])) as { pricingTiers: Array<{ name: string; prices: Record<string, number> }>; tokenizerId: string };
      const clone = (await cli(ui, ['models', 'get', 'gpt-4o-mini-discounted'])) as typeof builtIn & { isLangfuseManaged: boolean };
      expect(clone.isLangfuseManaged).toBe(false);
      expect(clone.tokenizerId).toBe(builtIn.tokenizerId);
      expect(clone.pricingTiers.map((t) => [t.name, t.prices])).toEqual(builtIn.pricingTiers.map((t) => [t.name, t.prices]));
    } finally {
      await ui.close();
    }
  }, 120_000);
});
