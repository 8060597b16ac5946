// The Langfuse Cloud regions: one table, read by profile add, its completion, doctor and the README.
import { describe, expect, it } from 'vitest';
import { REGION_NAMES, REGIONS, regionForUrl } from '../../../src/config/regions.js';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';

describe('regions', () => {
  it('knows EU, US, Japan and HIPAA, and recognises their hosts', () => {
    expect(REGION_NAMES).toEqual(['eu', 'us', 'jp', 'hipaa']);
    expect(REGIONS.jp.url).toBe('https://jp.cloud.langfuse.com');
    expect(REGIONS.hipaa.url).toBe('https://hipaa.cloud.langfuse.com');
    expect(regionForUrl('https://JP.cloud.langfuse.com/api/public/')).toBe('jp');
    expect(regionForUrl('https://hipaa.cloud.langfuse.com')).toBe('hipaa');
    expect(regionForUrl('https://langfuse.example.com')).toBeUndefined();
  });

  it('lets profile add take every region, and a base URL of one as that region', async () => {
    const env = isolatedEnv();
    for (const region of ['jp', 'hipaa']) {
      const added = await runInProcess(['profile', 'add', region, '--region', region, '--public-key', 'pk-lf-r-12345678', '--secret-key-stdin', '--json'], { env, stdin: 'sk-lf-r-12345678' });
      expect(added.exitCode, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ region, baseUrl: REGIONS[region as 'jp'].url });
    }
    const byUrl = await runInProcess(['profile', 'add', 'tokyo', '--base-url', 'https://jp.cloud.langfuse.com', '--public-key', 'pk-lf-r-12345678', '--secret-key-stdin', '--json'], { env, stdin: 'sk-lf-r-12345678' });
    expect(JSON.parse(byUrl.stdout)).toMatchObject({ region: 'jp' });
    const wrong = await runInProcess(['profile', 'add', 'x', '--region', 'apac'], { env });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain('Allowed choices are eu, us, jp, hipaa');
  });

  it('offers the table\'s names as the choices of --region, which completion reads', async () => {
    const { buildProgram } = await import('../../../src/cli.js');
    const { Context, defaultDeps } = await import('../../../src/context.js');
    const program = await buildProgram(new Context(defaultDeps()));
    const add = program.commands.find((c) => c.name() === 'profile')!.commands.find((c) => c.name() === 'add')!;
    expect(add.options.find((o) => o.long === '--region')!.argChoices).toEqual(['eu', 'us', 'jp', 'hipaa']);
  });
});
