// The checkpoint of an observations export: written atomically beside the output, read back,
// refused when it cannot be one.
import { truncateSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint, type Checkpoint, checkpointPath, identityOf, removeCheckpoint, writeCheckpoint } from '../../../../src/commands/observations/checkpoint.js';
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

describe('checkpoints', () => {
  const checkpoint = (over: Partial<Checkpoint> = {}): Checkpoint => ({
    version: 1, kind: 'observations-export', identity: identityOf('http://x', 'pk'), baseUrl: 'http://x', format: 'jsonl', query: { fields: 'core', environment: ['a', 'b'] },
    columns: null, max: null, pageSize: 1000, cursor: 'abc', items: 10, pages: 1, bytes: 100, complete: false, startedAt: 't', updatedAt: 't', ...over,
  });

  it('are written atomically beside the output and read back; none is undefined', async () => {
    const file = join(tempDir(), 'out.jsonl');
    expect(await readCheckpoint(checkpointPath(file))).toBeUndefined();
    await writeCheckpoint(checkpointPath(file), checkpoint());
    await writeCheckpoint(checkpointPath(file), checkpoint({ items: 20 }));
    expect(await readCheckpoint(checkpointPath(file))).toEqual(checkpoint({ items: 20 }));
    expect(checkpointPath(file)).toBe(`${file}.llmobs-checkpoint`);
  });

  it('leave no temporary file behind once removed, also those of runs killed while writing one', async () => {
    const dir = tempDir();
    const path = checkpointPath(join(dir, 'out.jsonl'));
    await writeCheckpoint(path, checkpoint());
    writeFileSync(`${path}.4242.tmp`, '{"version":1,');
    writeFileSync(join(dir, 'other.jsonl.llmobs-checkpoint.4242.tmp'), 'not ours');
    await removeCheckpoint(path);
    expect(readdirSync(dir).sort()).toEqual(['other.jsonl.llmobs-checkpoint.4242.tmp']);
  });

  it('that cannot be read are a file error that says how to start over', async () => {
    const path = checkpointPath(join(tempDir(), 'out.jsonl'));
    writeFileSync(path, '{"version":1,"items":"many"}');
    await expect(readCheckpoint(path)).rejects.toMatchObject({ exitCode: 6, hint: expect.stringContaining('--force') });
  });

  it('name who was read from without the secret', () => {
    expect(identityOf('http://x', 'pk-1')).toMatch(/^[0-9a-f]{32}$/);
    expect(identityOf('http://x', 'pk-1')).not.toBe(identityOf('http://y', 'pk-1'));
  });
});
