// traces get --json written as it is read: the same text printJson gives for the whole document,
// and a document that says where it stopped when the read stops early.
import { describe, expect, it } from 'vitest';
import { JsonStreamSink, JsonWholeSink } from '../../../../src/commands/traces/sinks.js';
import { Context, defaultDeps } from '../../../../src/context.js';
import { isolatedEnv } from '../../../helpers/cli.js';
import { Capture, stdinFrom } from '../../../helpers/streams.js';

async function context() {
  const stdout = new Capture();
  const ctx = new Context({ ...defaultDeps(), io: { stdout, stderr: new Capture(), stdin: stdinFrom(undefined) }, env: isolatedEnv() });
  ctx.globals.json = true;
  await ctx.prepare();
  return { ctx, stdout };
}

const observation = (id: string) => ({ id, type: 'SPAN', parentObservationId: null, startTime: '2026-05-01T10:00:00.000Z', endTime: '2026-05-01T10:00:01.000Z', metadata: { nested: { list: [1, 'two\nlines'] } }, usageDetails: {} });

describe('JsonStreamSink', () => {
  it('writes what printJson writes for the whole trace, pages at a time', async () => {
    for (const pages of [[], [[observation('a')], [], [observation('b'), observation('c')]]]) {
      const stream = await context();
      const whole = await context();
      for (const sink of [new JsonStreamSink(stream.ctx), new JsonWholeSink(whole.ctx)]) {
        await sink.begin({ id: 't', name: 'chat', tags: [] });
        for (const page of pages) await sink.add(page);
        await sink.end({ scores: [], latency: 1 }, 'traces');
      }
      expect(stream.stdout.text).toBe(whole.stdout.text);
      expect(JSON.parse(stream.stdout.text)).toMatchObject({ id: 't', observations: pages.flat(), totals: { observations: pages.flat().length }, source: 'traces' });
    }
  });

  it('ends the document with why it stopped', async () => {
    const { ctx, stdout } = await context();
    const sink = new JsonStreamSink(ctx);
    await sink.begin({ id: 't' });
    await sink.add([observation('a')]);
    await sink.stop('more than 1 observation');
    expect(JSON.parse(stdout.text)).toEqual({ id: 't', observations: [observation('a')], incomplete: 'more than 1 observation' });
  });
});
