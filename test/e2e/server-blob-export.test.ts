// `llmobs server --blob-export DEST`: the server keeps a folder in step with its project, on
// Langfuse's schedule, as `export blob` would; a consumer of Langfuse's manifests reads it back.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';
import { folderStore } from '../helpers/blob-compare.js';
import { readExport } from '../helpers/blob-reader.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { basicHeader, startServerProcess } from '../helpers/server-process.js';

describe('llmobs server --blob-export', { timeout: 120_000 }, () => {
  it('exports what arrives, window by window, and stops cleanly', async () => {
    const dest = join(tempDir(), 'lake');
    const server = startServerProcess(['--ephemeral', '--write-mode', 'dual', '--blob-export', dest, '--interval', '20m', '--format', 'jsonl', '--tables', 'observations_v2,scores'], isolatedEnv({ LLMOBS_BLOB_EXPORT_EVERY_MS: '300' }));
    const started = await server.ready;
    // Fifty spans from three hours to two hours ago, one every 72 seconds: older than the lag bound.
    const first = Date.now() - 3 * 3_600_000;
    const batch = Array.from({ length: 50 }, (_, i) => {
      const at = new Date(first + i * 72_000).toISOString();
      return { id: `e-${i}`, type: 'span-create', timestamp: at, body: { id: `s-${i}`, traceId: 't-1', name: 'step', startTime: at, endTime: at } };
    });
    // And a score on every tenth span, a numeric one, then a categorical one.
    const scores = batch.filter((_, i) => i % 10 === 0).map((span, i) => ({
      id: `sc-e-${i}`,
      type: 'score-create',
      timestamp: span.timestamp,
      body: { id: `sc-${i}`, traceId: 't-1', observationId: span.body.id, name: 'quality', timestamp: span.timestamp, ...(i % 2 ? { value: 'good', dataType: 'CATEGORICAL' } : { value: i / 10, dataType: 'NUMERIC' }) },
    }));
    const answer = await fetch(`${started.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: basicHeader(started), 'content-type': 'application/json' }, body: JSON.stringify({ batch: [...batch, ...scores] }) });
    expect(answer.status).toBe(207);
    const projects = (await (await fetch(`${started.url}/api/public/projects`, { headers: { authorization: basicHeader(started) } })).json()) as { data: Array<{ id: string }> };
    const projectId = projects.data[0]!.id;
    const manifests = join(dest, projectId, 'manifests');
    // Three hours in 20-minute windows up to now - 20 minutes: eight or nine manifests.
    for (let i = 0; i < 400 && !(existsSync(manifests) && readdirSync(manifests).length >= 8); i++) await new Promise((r) => setTimeout(r, 250));
    server.child.kill('SIGTERM');
    const result = await server.child;
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(String(result.stderr)).toContain(`Exporting to ${dest} in 20-minute windows`);
    const read = await readExport(folderStore(dest), '', projectId);
    expect(read.manifests.length).toBeGreaterThanOrEqual(8);
    expect(read.repeated.size).toBe(0);
    expect([...read.rows.get('observations_v2')!.keys()].sort()).toEqual(batch.map((e) => e.body.id).sort());
    // Langfuse's score columns, what each score is about, numeric value or category.
    const exported = read.rows.get('scores')!;
    expect([...exported.keys()].sort()).toEqual(scores.map((s) => s.body.id).sort());
    expect(Object.keys(exported.get('sc-1')!)).toEqual(['id', 'timestamp', 'project_id', 'environment', 'trace_id', 'observation_id', 'session_id', 'dataset_run_id', 'name', 'value', 'source', 'comment', 'data_type', 'string_value', 'created_at', 'updated_at']);
    expect(exported.get('sc-1')).toMatchObject({ trace_id: 't-1', observation_id: 's-10', name: 'quality', value: null, data_type: 'CATEGORICAL', string_value: 'good', source: 'API' });
    expect(exported.get('sc-2')).toMatchObject({ trace_id: 't-1', observation_id: 's-20', value: 0.2, data_type: 'NUMERIC', string_value: null });
    expect(exported.get('sc-2')!.timestamp).toBe(`${scores[2]!.timestamp.replace('T', ' ').replace('Z', '')}000`);
    expect(read.manifests.every((m) => JSON.stringify(m.tables) === '["observations_v2","scores"]')).toBe(true);
    // Nothing is left of the lock or of a temporary file.
    expect(readdirSync(dest).filter((n) => n.includes('llmobs-lock'))).toEqual([]);
  });

  it('refuses export options without --blob-export, and a bad one, before it listens', async () => {
    const env = isolatedEnv();
    for (const args of [['--interval', 'daily'], ['--blob-export', 's3://Bad/'], ['--blob-export', join(tempDir(), 'x'), '--tables', 'traces']]) {
      const result = await llmobs(['server', '--ephemeral', '--port', '0', ...args], { env });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).not.toContain('listening');
    }
  });
});
