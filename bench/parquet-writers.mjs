#!/usr/bin/env node
// The Parquet writers llmobs could use for `export blob`, on the rows it writes (the columns of
// Langfuse's observations_v2 export, typed as llmobs types them): each writes N rows in its own
// process, fed a page of 1,000 at a time into row groups of 10,000 as they come, Snappy-compressed;
// then hyparquet and DuckDB read every file back and compare sample rows with the source.
//
// hyparquet-writer and hyparquet are the project's; the peers are not installed by npm ci:
//   npm install --no-save parquet-wasm@0.8.0 apache-arrow@21.2.0 @dsnp/parquetjs@1.8.9 @duckdb/node-api@1.5.6-r.1
//   node bench/parquet-writers.mjs --rows 100000
// A writer or reader whose package is missing is reported as such.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const STRINGS = ['id', 'trace_id', 'project_id', 'parent_observation_id', 'type', 'name', 'level', 'status_message', 'version', 'environment', 'user_id', 'session_id', 'input', 'output', 'provided_model_name', 'model_id', 'prompt_name', 'release', 'trace_name'];
const JSONS = ['metadata', 'model_parameters', 'usage_details', 'cost_details', 'tags'];
const TIMES = ['start_time', 'end_time', 'completion_start_time', 'created_at', 'updated_at'];
const BOOLS = ['bookmarked', 'public', 'is_root_observation'];
const DOUBLES = ['total_cost', 'latency', 'time_to_first_token'];
const COLUMNS = [...STRINGS, ...JSONS, ...TIMES, ...BOOLS, ...DOUBLES];
const PAGE = 1000;
const GROUP = 10_000;
const WRITERS = ['hyparquet-writer', '@dsnp/parquetjs', 'parquet-wasm'];

/** Row i as export blob hands it to the writer (objects as JSON text for the peers' simple schemas). */
function row(i) {
  const t = Date.UTC(2026, 4, 1) + i * 1000;
  return {
    id: `obs-${String(i).padStart(8, '0')}`, trace_id: `trace-${Math.floor(i / 5)}`, project_id: 'project-1', parent_observation_id: i % 5 ? `obs-${String(i - (i % 5)).padStart(8, '0')}` : null,
    type: i % 3 ? 'GENERATION' : 'SPAN', name: 'llm-call', level: 'DEFAULT', status_message: null, version: null, environment: i % 4 ? 'production' : 'staging', user_id: `user-${i % 97}`, session_id: `session-${i % 1000}`,
    input: JSON.stringify([{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: `question number ${i} about the weather in city ${i % 300} and more text to make it longer` }]),
    output: `answer ${i}: it will be sunny with a chance of rain later in the afternoon, temperatures around ${i % 35} degrees.`,
    provided_model_name: ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet'][i % 3], model_id: `model-${i % 3}`, prompt_name: i % 2 ? 'support/agent' : null, release: 'v1.2.3', trace_name: 'chat',
    metadata: JSON.stringify({ source: 'api', region: 'eu', attempt: String(i % 3) }), model_parameters: JSON.stringify({ temperature: 0.7, max_tokens: 512 }), usage_details: JSON.stringify({ input: 100 + (i % 50), output: 20 + (i % 30), total: 120 + (i % 80) }), cost_details: JSON.stringify({ input: 0.00025, output: 0.0002, total: 0.00045 }), tags: JSON.stringify(['a', 'b']),
    start_time: new Date(t), end_time: new Date(t + 800), completion_start_time: i % 3 ? new Date(t + 200) : null, created_at: new Date(t + 1000), updated_at: new Date(t + 1000),
    bookmarked: false, public: false, is_root_observation: i % 5 === 0,
    total_cost: 0.00045 + (i % 7) * 1e-5, latency: 0.8, time_to_first_token: i % 3 ? 0.2 : null,
  };
}
const kindOf = (c) => (STRINGS.includes(c) || JSONS.includes(c) ? 'STRING' : TIMES.includes(c) ? 'TIMESTAMP' : BOOLS.includes(c) ? 'BOOLEAN' : 'DOUBLE');

async function child(lib, n, out) {
  const file = createWriteStream(out);
  let bytes = 0;
  const sink = async (chunk) => {
    bytes += chunk.length;
    if (!file.write(chunk)) await once(file, 'drain');
  };
  const started = performance.now();
  if (lib === 'hyparquet-writer') {
    const { ByteWriter, ParquetWriter, schemaFromColumnData } = await import('hyparquet-writer');
    const writer = new ByteWriter();
    let parquet;
    let held = [];
    const group = async () => {
      const columnData = COLUMNS.map((c) => ({ name: c, data: held.map((r) => r[c]), type: kindOf(c) }));
      parquet ??= new ParquetWriter({ writer, schema: schemaFromColumnData({ columnData }), statistics: false });
      parquet.write({ columnData, rowGroupSize: held.length });
      held = [];
      await sink(writer.getBytes().slice());
      writer.index = 0;
    };
    for (let i = 0; i < n; i += PAGE) {
      for (let j = i; j < Math.min(n, i + PAGE); j++) held.push(row(j));
      if (held.length >= GROUP) await group();
    }
    if (held.length) await group();
    parquet.finish();
    await sink(writer.getBytes().slice());
  } else if (lib === '@dsnp/parquetjs') {
    const { ParquetSchema, ParquetWriter } = await import('@dsnp/parquetjs');
    const { Writable } = await import('node:stream');
    const types = { STRING: 'UTF8', TIMESTAMP: 'TIMESTAMP_MILLIS', BOOLEAN: 'BOOLEAN', DOUBLE: 'DOUBLE' };
    const schema = new ParquetSchema(Object.fromEntries(COLUMNS.map((c) => [c, { type: types[kindOf(c)], optional: true, compression: 'SNAPPY' }])));
    const stream = new Writable({ write: (chunk, _e, done) => void sink(chunk).then(() => done(), done) });
    const writer = await ParquetWriter.openStream(schema, stream, { rowGroupSize: GROUP });
    for (let i = 0; i < n; i++) {
      const r = row(i);
      for (const k of Object.keys(r)) if (r[k] === null) delete r[k];
      await writer.appendRow(r);
    }
    await writer.close();
  } else if (lib === 'parquet-wasm') {
    const arrow = await import('apache-arrow');
    const pq = await import('parquet-wasm/esm');
    pq.initSync({ module: readFileSync(new URL(import.meta.resolve('parquet-wasm/esm/parquet_wasm_bg.wasm'))) });
    const types = { STRING: () => new arrow.Utf8(), TIMESTAMP: () => new arrow.TimestampMillisecond(), BOOLEAN: () => new arrow.Bool(), DOUBLE: () => new arrow.Float64() };
    async function* batches() {
      for (let i = 0; i < n; i += GROUP) {
        const rows = [];
        for (let j = i; j < Math.min(n, i + GROUP); j++) rows.push(row(j));
        const vectors = Object.fromEntries(COLUMNS.map((c) => [c, arrow.vectorFromArray(rows.map((r) => (r[c] instanceof Date ? r[c].getTime() : r[c])), types[kindOf(c)]())]));
        yield* pq.Table.fromIPCStream(arrow.tableToIPC(new arrow.Table(vectors), 'stream')).recordBatches();
      }
    }
    const source = batches();
    const input = new ReadableStream({ async pull(c) { const { value, done } = await source.next(); if (done) c.close(); else c.enqueue(value); } });
    const output = await pq.transformParquetStream(input, new pq.WriterPropertiesBuilder().setCompression(pq.Compression.SNAPPY).build());
    for await (const chunk of output) await sink(chunk);
  }
  file.end();
  await once(file, 'finish');
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, bytes, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

const norm = (v) => (v instanceof Date ? v.getTime() : typeof v === 'bigint' ? Number(v) : v && typeof v === 'object' && 'micros' in v ? Number(v.micros / 1000n) : v ?? null);

async function readBack(path, n) {
  const sample = [0, Math.floor(n / 3), n - 1];
  const check = (got, i) => {
    for (const c of COLUMNS) if (norm(got?.[c]) !== norm(row(i)[c])) return `row ${i} ${c}: ${norm(got?.[c])} ≠ ${norm(row(i)[c])}`;
    return '';
  };
  const result = {};
  try {
    const { parquetReadObjects } = await import('hyparquet');
    const buf = readFileSync(path);
    const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) });
    result.hyparquet = rows.length !== n ? `${rows.length} rows` : sample.map((i) => check(rows[i], i)).find(Boolean) || 'ok';
  } catch (error) {
    result.hyparquet = `error: ${error.message}`;
  }
  try {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    const count = Number((await (await db.runAndReadAll(`select count(*) as c from read_parquet('${path}')`)).getRowObjects())[0].c);
    let verdict = count !== n ? `${count} rows` : '';
    for (const i of sample) verdict ||= check((await (await db.runAndReadAll(`select * from read_parquet('${path}') where id = '${row(i).id}'`)).getRowObjectsJS())[0], i);
    result.duckdb = verdict || 'ok';
  } catch (error) {
    result.duckdb = /Cannot find (package|module)/.test(error.message) ? 'not installed' : `error: ${error.message}`;
  }
  return result;
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], Number(process.argv[4]), process.argv[5]);
} else {
  const at = process.argv.indexOf('--rows');
  const n = at > 0 ? Number(process.argv[at + 1]) : 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'llmobs-parquet-'));
  const t = performance.now();
  for (let i = 0; i < n; i++) row(i);
  console.log(`${n.toLocaleString('en')} rows of ${COLUMNS.length} columns; making them alone takes ${Math.round(performance.now() - t)} ms`);
  console.log('| writer | rows/s | ms | file MB | peak RSS MB | hyparquet reads | DuckDB reads |\n| --- | --- | --- | --- | --- | --- | --- |');
  for (const lib of WRITERS) {
    const out = join(dir, `${lib.replace(/\W/g, '-')}.parquet`);
    let line;
    try {
      const r = JSON.parse(execFileSync(process.execPath, [import.meta.filename, '--child', lib, String(n), out], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
      const read = await readBack(out, n);
      line = `| ${lib} | ${Math.round((n / r.ms) * 1000).toLocaleString('en')} | ${Math.round(r.ms).toLocaleString('en')} | ${(r.bytes / 1e6).toFixed(1)} | ${r.maxRssMB} | ${read.hyparquet} | ${read.duckdb} |`;
    } catch (error) {
      line = `| ${lib} | failed: ${String(error.stderr || error.message).split('\n').find((l) => /Error/.test(l)) ?? 'see stderr'} | | | | | |`;
    }
    console.log(line);
  }
  rmSync(dir, { recursive: true, force: true });
}
