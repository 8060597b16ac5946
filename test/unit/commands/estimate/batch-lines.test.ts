// The results of estimate --batch, byte for byte what JSON.stringify writes of a single estimate.
import { describe, expect, it } from 'vitest';

describe('batch result lines, byte for byte', () => {
  it('are JSON.stringify of the line number, the id and the single estimate, for many kinds of line', async () => {
    const { BatchProcessor } = await import('../../../../src/commands/estimate/batch-lines.js');
    const { resultJson } = await import('../../../../src/commands/estimate/render.js');
    const { estimate, createMatcher } = await import('../../../../src/core/index.js');
    const { offlineDefinitions } = await import('../../../../src/model-definitions/index.js');
    const { engineCounter } = await import('../../../../src/tokenizer/index.js');
    const { rng } = await import('../../tokenizer/support/corpus.js');
    const { definitions } = offlineDefinitions();
    const options = { definitions, count: engineCounter, match: createMatcher(definitions) };
    const random = rng(17);
    const models = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'o3', 'unknown-model', 'gpt-4.1', 'text-embedding-3-small'];
    const ids: unknown[] = ['plain', 'ünïcode', 'quote " and \\ backslash', 'tab\t', 42, 1.5, null, { nested: ['x'] }, undefined];
    const records: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 3000; i++) {
      const big = Math.floor(random() * 10 ** (1 + Math.floor(random() * 7)));
      const usage =
        i % 4 === 0
          ? { prompt_tokens: big + 10, completion_tokens: i % 333, total_tokens: big + 10 + (i % 333), prompt_tokens_details: { cached_tokens: i % 7 } }
          : i % 4 === 1
            ? { input: big, output: Math.floor(random() * 5000), input_cached_tokens: i % 50, total: i % 9 === 0 ? 1 : undefined }
            : i % 4 === 2
              ? undefined
              : { input: big };
      records.push({
        id: ids[i % ids.length],
        model: models[i % models.length],
        ...(usage ? { usageDetails: usage } : { input: `text ${i} `.repeat(i % 5), output: i % 3 ? 'ok' : undefined }),
        ...(i % 10 === 0 ? { modelParameters: { service_tier: 'priority' } } : {}),
        ...(i % 17 === 0 ? { costDetails: { input: random() / 1000, output: random() } } : {}),
      });
    }
    const lines = records.map((record) => JSON.stringify(record));
    const output = new BatchProcessor(definitions).processChunk(`${lines.join('\n')}\n`, 1).output.toString('utf8').split('\n');
    // What each line says, as the batch reads it (undefined values are not in the text).
    const expected = lines.map((line) => JSON.parse(line) as Record<string, unknown>).map((record, i) => {
      const result = estimate({ model: record.model as string, input: record.input, output: record.output, usageDetails: record.usageDetails, costDetails: record.costDetails, modelParameters: record.modelParameters }, options);
      return JSON.stringify({ line: i + 1, ...(record.id !== undefined ? { id: record.id } : {}), ...resultJson(result, false) });
    });
    const differing = expected.map((line, i) => [line, output[i]]).filter(([a, b]) => a !== b);
    expect(differing.slice(0, 3)).toEqual([]);
    expect(output).toHaveLength(records.length + 1);
  });
});
