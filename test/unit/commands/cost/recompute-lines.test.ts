// Re-pricing an export line by line: the lines read, the results written, bad lines reported.
import { describe, expect, it } from 'vitest';
import { Recomputer } from '../../../../src/core/spend/recompute.js';
import { lineChunks } from '../../../../src/io/line-chunks.js';
import { costDifference, RecomputeLines } from '../../../../src/commands/cost/recompute-lines.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { storedCosts, syntheticGenerations } from '../../../helpers/fake-data-api.js';

describe('re-pricing lines', () => {
  const recomputer = () => new Recomputer({ definitions: builtInDefinitions(), count: engineCounter, datedMatching: true });

  it('reads JSON Lines and the JSON array layout alike, with a BOM, CRLF and blank lines', () => {
    const rows = syntheticGenerations(4).map((g) => JSON.stringify({ ...g, totalCost: g.costDetails?.total }));
    const jsonl = new RecomputeLines(recomputer(), true).processChunk(`\ufeff${rows.join('\r\n')}\r\n\r\n`, 1);
    const array = new RecomputeLines(recomputer(), true).processChunk(`[\n${rows.join(',\n')}\n]\n`, 1);
    expect(jsonl.generations).toBe(4);
    expect(array.generations).toBe(4);
    expect(jsonl.failed + array.failed).toBe(0);
    expect(array.output!.toString()).toBe(jsonl.output!.toString());
  });

  it('writes each result as JSON.stringify writes the same object', () => {
    const raw = { id: 'g"1', traceId: null, startTime: '2026-05-01T00:00:00Z', providedModelName: 'gpt-4o', usageDetails: { input: 1234, output: 56 }, totalCost: 0.001 };
    const out = new RecomputeLines(recomputer(), true).processChunk(`${JSON.stringify(raw)}\n`, 1);
    const line = out.output!.toString();
    const parsed = JSON.parse(line);
    expect(line).toBe(`${JSON.stringify(parsed)}\n`);
    expect(parsed).toEqual({ id: 'g"1', traceId: null, startTime: '2026-05-01T00:00:00Z', model: 'gpt-4o', definition: 'gpt-4o', storedCost: 0.001, recomputedCost: storedCosts('gpt-4o', { input: 1234, output: 56 }).total, difference: costDifference(0.001, parsed.recomputedCost) });
  });

  it('reports bad lines with their numbers and goes on', () => {
    const out = new RecomputeLines(recomputer(), false).processChunk('{"id":"a","providedModelName":"gpt-4o","usageDetails":{"input":1}}\nid,model\n{"id":\n[1]\n', 7);
    expect(out.generations).toBe(1);
    expect(out.failures.map((f) => f.line)).toEqual([8, 9, 10]);
    expect(out.output).toBeNull();
  });

  it('rounds differences to the stored 12 decimals', () => {
    expect(costDifference(0.0001, 0.0003)).toBe(0.0002);
    expect(costDifference(null, 1)).toBeNull();
  });

  it('cuts a byte stream into whole lines, never inside a character', async () => {
    const text = `${'é'.repeat(10)}\n${'x'.repeat(50)}\nlast`;
    async function* bytes() {
      const all = Buffer.from(text);
      for (let i = 0; i < all.length; i += 3) yield all.subarray(i, i + 3);
    }
    const chunks: string[] = [];
    for await (const chunk of lineChunks(bytes(), 8)) chunks.push(chunk.toString('utf8'));
    expect(chunks.join('')).toBe(text);
    expect(chunks.slice(0, -1).every((c) => c.endsWith('\n'))).toBe(true);
  });
});
