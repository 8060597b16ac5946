// doctor's checks of the profile file.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigFile } from '../../../../src/commands/doctor/local.js';
import { isolatedEnv, runInProcess, tempDir } from '../../../helpers/cli.js';

async function addProfile(env: Record<string, string | undefined>, name: string, where: string[], secret = 'sk-lf-doctor-12345678') {
  const result = await runInProcess(['profile', 'add', name, ...where, '--public-key', 'pk-lf-doctor-12345678', '--secret-key-stdin'], { env, stdin: secret });
  expect(result.exitCode, result.stderr).toBe(0);
}

describe('doctor on local setup', () => {
  it('fails on a profile file others can read, with the command that fixes it', async () => {
    const env = isolatedEnv();
    await addProfile(env, 'prod', ['--region', 'eu']);
    const file = join(env.LLMOBS_CONFIG_DIR!, 'config.json');
    chmodSync(file, 0o644);
    const check = checkConfigFile(env.LLMOBS_CONFIG_DIR!);
    expect(check).toMatchObject({ status: 'fail', summary: `others can read ${file} (mode 0644), and it holds secret keys` });
    expect(check.fix).toMatch(/^chmod 600 /);
    chmodSync(env.LLMOBS_CONFIG_DIR!, 0o777);
    expect(checkConfigFile(env.LLMOBS_CONFIG_DIR!)).toMatchObject({ status: 'fail', summary: `others can write to ${env.LLMOBS_CONFIG_DIR} (mode 0777): they could replace the profile file` });
    chmodSync(env.LLMOBS_CONFIG_DIR!, 0o700);
    chmodSync(file, 0o600);
    expect(checkConfigFile(env.LLMOBS_CONFIG_DIR!).status).toBe('ok');
    expect(checkConfigFile(join(tempDir(), 'none')).summary).toMatch(/^none yet/);
  });
});
