// Prompts in the web UI: the list in folders, a prompt's versions with their labels, the diff of
// two versions, the resolved view of a prompt that includes another, and a label moved in the UI
// is what `llmobs labels list` shows; a label moved elsewhere since the page was read is not
// moved (the guard of `labels set --expect-current`). A prompt with more versions than a page
// shows the newest, loads the rest on request, and diffs, opens and moves labels to versions the
// table does not show.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { openUi, type UiSession } from '../helpers/browser.js';

async function cli(ui: UiSession, args: string[]): Promise<unknown> {
  const result = await execa(process.execPath, [BIN, ...args, '--json'], { env: ui.env, extendEnv: false, reject: false });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
}

async function seed(ui: UiSession, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${ui.server.url}/api/public/v2/prompts`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${ui.server.publicKey}:${ui.server.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

describe('prompts in the web UI', () => {
  it('shows folders, versions, a diff and the resolved prompt, and moves a label as llmobs labels list then shows it', async () => {
    const ui = await openUi();
    try {
      await seed(ui, { name: 'support/tone', type: 'text', prompt: 'Be brief and kind.', labels: ['production'] });
      await seed(ui, { name: 'support/agent', type: 'text', prompt: 'You help with billing.\n@@@langfusePrompt:name=support/tone|label=production@@@', labels: ['production'] });
      await seed(ui, { name: 'support/agent', type: 'text', prompt: 'You help with billing and refunds.\n@@@langfusePrompt:name=support/tone|label=production@@@', labels: ['staging'], commitMessage: 'refunds too' });
      await seed(ui, { name: 'welcome', type: 'chat', prompt: [{ role: 'system', content: 'Greet the user.' }] });
      const { page } = ui;

      await page.getByRole('link', { name: 'Prompts' }).click();
      const list = page.getByRole('table', { name: 'Prompts' });
      await list.getByRole('link', { name: 'welcome' }).waitFor();
      await list.getByRole('link', { name: /support\// }).click();
      await list.getByRole('link', { name: 'agent' }).click();
      await page.getByRole('heading', { name: 'support/agent' }).waitFor();

      const versions = page.getByRole('table', { name: 'Versions' });
      expect(await versions.getByRole('row', { name: /Version 2/ }).innerText()).toContain('staging');
      expect(await versions.getByRole('row', { name: /Version 1/ }).innerText()).toContain('production');

      // Resolved: the included prompt's text in place of the reference; as stored: the reference.
      const content = page.getByRole('region', { name: 'Version 2' });
      await content.getByText('Be brief and kind.').waitFor();
      await content.getByLabel('As stored (references unresolved)').check();
      await content.getByText('@@@langfusePrompt:name=support/tone|label=production@@@', { exact: false }).waitFor();

      const compare = page.getByRole('form', { name: 'Compare versions' });
      await compare.getByLabel('From version').fill('1');
      await compare.getByLabel('Compare to version').fill('2');
      await compare.getByRole('button', { name: 'Show diff' }).click();
      const diff = compare.getByRole('region', { name: 'Diff' });
      await diff.getByText('-You help with billing.', { exact: true }).waitFor();
      await diff.getByText('+You help with billing and refunds.', { exact: true }).waitFor();

      const move = page.getByRole('form', { name: 'Move a label' });
      await move.getByLabel('Label').fill('production');
      await move.getByText('"production" is on version 1 now.').waitFor();
      await move.getByLabel('To version').fill('2');
      await move.getByRole('button', { name: 'Move label' }).click();
      await move.getByRole('status').getByText('Moved "production" to version 2 (from version 1).').waitFor();
      expect(await cli(ui, ['labels', 'list', 'support/agent'])).toMatchObject({ name: 'support/agent', labels: { production: 2, staging: 2 } });

      // Someone moves it back meanwhile: the page still shows version 2, so the UI's move is refused.
      await move.getByText('"production" is on version 2 now.').waitFor();
      await cli(ui, ['labels', 'set', 'support/agent', 'production', '--version', '1']);
      await move.getByLabel('To version').fill('2');
      await move.getByLabel('Label').fill('production');
      ui.expectConsoleError(/409 \(Conflict\)/);
      await move.getByRole('button', { name: 'Move label' }).click();
      await move.getByRole('alert').waitFor();
      expect(await move.getByRole('alert').innerText()).toContain('production');
      expect(await cli(ui, ['labels', 'list', 'support/agent'])).toMatchObject({ labels: { production: 1 } });
    } finally {
      await ui.close();
    }
  }, 180_000);

  it('shows the newest versions of a long prompt, loads the rest, and works with versions not shown', async () => {
    const ui = await openUi();
    try {
      // One page more than the table shows (PAGE_LIMIT in src/server/ui/prompts.ts), and five.
      const count = 55;
      for (let v = 1; v <= count; v++) await seed(ui, { name: 'long', type: 'text', prompt: `text ${v}`, labels: v === 3 ? ['production'] : [], commitMessage: `change ${v}` });
      const { page } = ui;
      await page.getByRole('link', { name: 'Prompts' }).click();
      await page.getByRole('table', { name: 'Prompts' }).getByRole('link', { name: 'long' }).click();
      await page.getByRole('heading', { name: 'long' }).waitFor();

      const versions = page.getByRole('table', { name: 'Versions' });
      const rows = versions.locator('tbody tr');
      const notice = page.getByTestId('versions-notice');
      await notice.getByText('Showing the newest 50 of 55 versions.').waitFor();
      expect(await rows.count()).toBe(50);
      expect(await rows.first().innerText()).toContain('Version 55');
      expect(await rows.last().innerText()).toContain('Version 6');
      await page.getByRole('region', { name: 'Version 55' }).getByText('text 55').waitFor();

      // The label is on a version the table does not show: the page knows where it is.
      const move = page.getByRole('form', { name: 'Move a label' });
      await move.getByLabel('Label').fill('production');
      await move.getByText('"production" is on version 3 now.').waitFor();
      await move.getByLabel('To version').fill('2');
      await move.getByRole('button', { name: 'Move label' }).click();
      await move.getByRole('status').getByText('Moved "production" to version 2 (from version 3).').waitFor();
      expect(await cli(ui, ['labels', 'list', 'long'])).toMatchObject({ labels: { production: 2 } });

      const compare = page.getByRole('form', { name: 'Compare versions' });
      await compare.getByLabel('From version').fill('1');
      await compare.getByLabel('Compare to version').fill('55');
      await compare.getByRole('button', { name: 'Show diff' }).click();
      await compare.getByRole('region', { name: 'Diff' }).getByText('-text 1', { exact: true }).waitFor();

      const open = page.getByRole('form', { name: 'Open a version' });
      await open.getByLabel('Version to open').fill('4');
      await open.getByRole('button', { name: 'Open' }).click();
      await page.getByRole('region', { name: 'Version 4' }).getByText('text 4').waitFor();

      await notice.getByRole('button', { name: 'Load more versions' }).click();
      await versions.getByRole('row', { name: /Version 1\b/ }).waitFor();
      expect(await rows.count()).toBe(55);
      expect(await notice.count()).toBe(0);
      expect(await versions.getByRole('row', { name: /Version 2\b/ }).innerText()).toContain('production');
      expect(await versions.getByRole('row', { name: /Version 3\b/ }).innerText()).toContain('change 3');

      // A move reads the versions again, as many as were shown.
      await move.getByLabel('Label').fill('canary');
      await move.getByText('"canary" is on no version now.').waitFor();
      await move.getByLabel('To version').fill('1');
      await move.getByRole('button', { name: 'Move label' }).click();
      await move.getByRole('status').getByText('Moved "canary" to version 1.').waitFor();
      await versions.getByRole('row', { name: /Version 1\b/ }).getByText('canary').waitFor();
      expect(await rows.count()).toBe(55);
      expect(await versions.getByRole('row', { name: /Version 2\b/ }).innerText()).toContain('production');
    } finally {
      await ui.close();
    }
  }, 180_000);
});
