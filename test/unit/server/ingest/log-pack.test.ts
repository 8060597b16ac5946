// An observation's event log as stored: without what its record holds too, and read back whole.
import { describe, expect, it } from 'vitest';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import { packObservationLog, unpackObservationLog } from '../../../../src/server/ingest/log-pack.js';
import type { IngestAuth } from '../../../../src/server/ingest/types.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { MemoryStore } from './support/memory-store.js';

const auth: IngestAuth = { projectId: 'proj-1', accessLevel: 'project' };
const NOW = new Date('2026-03-01T12:00:00.000Z');
const at = '2026-03-01T10:00:00.000Z';

function built(batch: unknown[]) {
  const result = processBatch(batch, auth, new MemoryStore(), { now: NOW, count: engineCounter });
  expect(result.response.errors).toEqual([]);
  return result.writes.observations;
}

const roundTrip = (log: unknown, record: Parameters<typeof packObservationLog>[1]) => unpackObservationLog(JSON.parse(JSON.stringify(packObservationLog(log as never, record))), record);

describe('packed observation logs', () => {
  it('keeps nothing of a lone event but its type, id and what it carried, and reads it back whole', () => {
    const [generation] = built([
      {
        id: 'ev-1',
        type: 'generation-create',
        timestamp: at,
        body: { id: 'g', traceId: 't', name: 'llm', startTime: at, endTime: at, model: 'gpt-4o', input: 'hi', output: 'hello', modelParameters: { temperature: 0 }, metadata: { k: 'v' }, usageDetails: { input: 3, output: 1 } },
      },
    ]);
    const packed = packObservationLog(generation!.log, generation!.record) as { events: unknown[] };
    expect(packed.events).toEqual([{ type: 'generation-create', body: {}, id: 'ev-1', io: 3, same: expect.any(Number) }]);
    const back = roundTrip(generation!.log, generation!.record)!;
    expect(back).toStrictEqual(generation!.log);
    // Read back, the log shares no object with the record it came from.
    (back.events[0]!.body['modelParameters'] as { temperature: number }).temperature = 9;
    expect(generation!.record.modelParameters).toEqual({ temperature: 0 });
  });

  it('keeps what differs from the record: an older name, other metadata, a timestamp that is not the start, the raw input', () => {
    const events = [
      { id: 'ev-1', type: 'span-create', timestamp: at, body: { id: 's', traceId: 't', name: 'first', metadata: { n: '1', tools: [{ type: 'function', function: { name: 'f' } }] }, input: 'q' } },
      { id: 'ev-2', type: 'span-update', timestamp: '2026-03-01T10:00:05.000Z', body: { id: 's', name: 'second', level: 'ERROR', statusMessage: null, endTime: '2026-03-01T10:00:05Z' } },
    ];
    const [span] = built(events);
    expect(span!.log!.rawInput).toBe('q');
    const packed = packObservationLog(span!.log, span!.record) as { events: Array<{ body: Record<string, unknown>; timestamp?: string }> };
    expect(packed.events[0]!.body).toMatchObject({ name: 'first', metadata: events[0]!.body.metadata });
    expect(packed.events[0]!.timestamp).toBeUndefined();
    expect(packed.events[1]!.body).toEqual({ endTime: '2026-03-01T10:00:05Z' });
    expect(packed.events[1]!.timestamp).toBe('2026-03-01T10:00:05.000Z');
    expect(roundTrip(span!.log, span!.record)).toStrictEqual(span!.log);
  });

  it('reads a log stored before packing as it was', () => {
    const [span] = built([{ id: 'ev-1', type: 'span-create', timestamp: at, body: { id: 's', traceId: 't', name: 'x' } }]);
    const unpacked = JSON.parse(JSON.stringify(span!.log));
    expect(unpackObservationLog(unpacked, span!.record)).toStrictEqual(span!.log);
    expect(unpackObservationLog(null, span!.record)).toBeNull();
  });
});
