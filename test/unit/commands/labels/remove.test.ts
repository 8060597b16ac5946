// `llmobs labels remove` in-process against the local server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';

let cli: LocalCli;

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

describe('labels remove', () => {
  it('explains that the API cannot remove labels and how to move one, exit 2, sending nothing', async () => {
    const result = await cli.run(['labels', 'remove', 'n/set', 'production']);
    expect([result.exitCode, result.sent, result.stdout]).toEqual([2, [], '']);
    expect(result.stderr).toContain('labels cannot be removed through the Langfuse API');
    expect(result.stderr).toContain('llmobs labels set n/set production --version N');
  });
});
