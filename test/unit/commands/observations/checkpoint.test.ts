import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '../../../../src/commands/observations/checkpoint.js';
import { tempDir } from '../../../helpers/cli.js';

describe('an observations export checkpoint', () => {
  it('a file at its path too large to be one is refused unread', async () => {
    const dir = tempDir();
    const path = join(dir, 'out.jsonl.llmobs-checkpoint');
    writeFileSync(path, '');
    truncateSync(path, 2 ** 40);
    await expect(readCheckpoint(path)).rejects.toThrow(`the checkpoint ${path} is not one llmobs can read (it is ${2 ** 40} bytes, more than 1 MB`);
  });
});
