// profile add on a terminal (a scripted prompter) and its local checks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../../../src/prompter.js';
import { isolatedEnv, runInProcess } from '../../../helpers/cli.js';

function scripted(answers: { select?: string[]; input?: string[]; password?: string[]; confirm?: boolean[] }) {
  const asked: string[] = [];
  const prompter: Prompter = {
    select: async ({ message }) => (asked.push(message), answers.select!.shift()! as never),
    input: async ({ message, validate }) => {
      asked.push(message);
      const value = answers.input!.shift()!;
      const verdict = validate?.(value);
      if (verdict !== undefined && verdict !== true) throw new Error(`rejected: ${verdict}`);
      return value;
    },
    password: async ({ message }) => (asked.push(message), answers.password!.shift()!),
    confirm: async ({ message }) => (asked.push(message), answers.confirm!.shift()!),
  };
  return { prompter, asked };
}

describe('profile add', () => {
  it('asks on a terminal for what is missing, with the secret masked, and stores the profile', async () => {
    const env = isolatedEnv();
    const { prompter, asked } = scripted({ select: ['custom'], input: ['http://localhost:3000/', 'pk-lf-abc-123456789'], password: ['sk-lf-abc-987654321'] });
    const result = await runInProcess(['profile', 'add', 'dev'], { env, tty: true, prompter });
    expect(result.exitCode).toBe(0);
    expect(asked).toEqual(['Server', 'Base URL', 'Public key (pk-lf-...)', 'Secret key (sk-lf-...)']);
    const file = JSON.parse(readFileSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(file).toEqual({
      profiles: { dev: { baseUrl: 'http://localhost:3000', publicKey: 'pk-lf-abc-123456789', secretKey: 'sk-lf-abc-987654321' } },
      activeProfile: 'dev',
    });
    expect(result.stdout + result.stderr).not.toContain('sk-lf-abc-987654321');
  });

  it('stores a region, not its URL, and keeps the first profile active', async () => {
    const env = isolatedEnv();
    await runInProcess(['profile', 'add', 'eu', '--region', 'eu', '--public-key', 'pk-lf-1-aaaaaaaa', '--secret-key-stdin'], { env, stdin: 'sk-lf-1-bbbbbbbb\n' });
    await runInProcess(['profile', 'add', 'us', '--base-url', 'https://us.cloud.langfuse.com', '--public-key', 'pk-lf-2-aaaaaaaa', '--secret-key-stdin'], { env, stdin: 'sk-lf-2-bbbbbbbb' });
    const list = await runInProcess(['profile', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([
      { name: 'eu', active: true, baseUrl: 'https://cloud.langfuse.com', region: 'eu', auth: 'basic', publicKey: 'pk-lf-…aaaa' },
      { name: 'us', active: false, baseUrl: 'https://us.cloud.langfuse.com', region: 'us', auth: 'basic', publicKey: 'pk-lf-…aaaa' },
    ]);
    const names = await runInProcess(['profile', 'list', '--names'], { env });
    expect(names.stdout).toBe('eu\nus\n');
  });

  it('refuses swapped keys, duplicate names and bad names before writing anything', async () => {
    const env = isolatedEnv();
    const swapped = await runInProcess(['profile', 'add', 'x', '--region', 'eu', '--public-key', 'sk-lf-oops-12345678', '--secret-key-stdin'], { env, stdin: 'sk-lf-2' });
    expect(swapped.exitCode).toBe(2);
    expect(swapped.stderr).toContain('looks like a secret key');
    expect(swapped.stderr).not.toContain('sk-lf-oops');
    await runInProcess(['profile', 'add', 'x', '--region', 'eu', '--public-key', 'pk-lf-1-aaaaaaaa', '--secret-key-stdin'], { env, stdin: 'sk-lf-1-bbbbbbbb' });
    const duplicate = await runInProcess(['profile', 'add', 'x', '--region', 'us', '--public-key', 'pk-lf-1-aaaaaaaa', '--secret-key-stdin'], { env, stdin: 'sk-lf-1-bbbbbbbb' });
    expect(duplicate.exitCode).toBe(2);
    expect(duplicate.stderr).toContain('--force');
    const badName = await runInProcess(['profile', 'add', '../x', '--region', 'eu'], { env });
    expect(badName.exitCode).toBe(2);
    const both = await runInProcess(['profile', 'add', 'y', '--region', 'eu', '--base-url', 'http://x'], { env });
    expect(both.exitCode).toBe(2);
  });

  it('reports a broken profile file with its path and leaves it alone', async () => {
    const env = isolatedEnv();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(env.LLMOBS_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json'), '{"profiles": {', { mode: 0o644 });
    const result = await runInProcess(['profile', 'list'], { env });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(join(env.LLMOBS_CONFIG_DIR!, 'config.json'));
    expect(result.stderr).toContain('readable by other users');
    expect(readFileSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json'), 'utf8')).toBe('{"profiles": {');
  });
});
