// Every CSV llmobs writes, from data a user of the traced application controls (a trace name, a
// user id, an observation name): cells a spreadsheet would run as formulas get a leading single
// quote (OWASP, CSV Injection: https://owasp.org/www-community/attacks/CSV_Injection), while JSON
// Lines and piped tables (TSV, for scripts) keep the values as they are. The built binary against
// the local server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const LINK = '=HYPERLINK("http://evil.test","click")';
const DDE = "-2+3+cmd|' /C calc'!A0";
const AT = '@SUM(1+1)';
const AT_CELL = "'@SUM(1+1)";
const LINK_CELL = `"'=HYPERLINK(""http://evil.test"",""click"")"`;
const DDE_CELL = "'-2+3+cmd|' /C calc'!A0";

let server: RunningServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  // Trace names and users as a v3 SDK sends them, read back through the v3 trace list: dual mode.
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  const at = '2026-05-02T08:00:00.000Z';
  const batch = [
    { id: 'ev-t', type: 'trace-create', timestamp: at, body: { id: 'trace-evil', name: LINK, userId: AT, timestamp: at } },
    { id: 'ev-g', type: 'generation-create', timestamp: at, body: { id: 'gen-evil', traceId: 'trace-evil', name: DDE, startTime: at, endTime: at, model: 'gpt-4o', usageDetails: { input: 10, output: 2 } } },
  ];
  const response = await fetch(`${server.url}/api/public/ingestion`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ batch }),
  });
  expect(response.status).toBe(207);
  env = await profileEnv(server);
});
afterAll(() => server.close());

describe('CSV cells a spreadsheet would run', () => {
  it('observations list --format csv and observations export to .csv neutralise them; JSON Lines keep them', async () => {
    const list = await llmobs(['observations', 'list', '--format', 'csv', '--fields', 'id,name,traceName,userId'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toBe(`id,name,traceName,userId\ngen-evil,${DDE_CELL},${LINK_CELL},${AT_CELL}\n`);

    const dir = tempDir();
    const exported = await llmobs(['observations', 'export', '--output', join(dir, 'o.csv'), '--fields', 'id,name,traceName'], { env });
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(readFileSync(join(dir, 'o.csv'), 'utf8')).toBe(`id,name,traceName\ngen-evil,${DDE_CELL},${LINK_CELL}\n`);

    const raw = await llmobs(['observations', 'export', '--output', join(dir, 'o.jsonl'), '--fields', 'id,name,traceName'], { env });
    expect(raw.exitCode, raw.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'o.jsonl'), 'utf8'))).toEqual({ id: 'gen-evil', name: DDE, traceName: LINK });
  });

  it('traces list --csv and cost report --csv neutralise them', async () => {
    const traces = await llmobs(['traces', 'list', '--csv'], { env });
    expect(traces.exitCode, traces.stderr).toBe(0);
    expect(traces.stdout).toBe(`TIMESTAMP,NAME,USER,SESSION,TAGS,OBS,COST,LATENCY,ID\n2026-05-02 08:00:00Z,${LINK_CELL},${AT_CELL},,,1,$0.000045,0 ms,trace-evil\n`);

    const report = await llmobs(['cost', 'report', '--from', '2026-05-01', '--to', '2026-06-01', '--by', 'user', '--csv', '--no-cache'], { env });
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toBe(`user,cost,inputTokens,outputTokens,count\n${AT_CELL},0.000045,10,2,1\n`);
  });

  // Piped tables are for scripts (cut, awk, grep): values as stored, as gh's are (docs/reference.md).
  it('a piped table (TSV) keeps them as stored', async () => {
    const traces = await llmobs(['traces', 'list'], { env });
    expect(traces.exitCode, traces.stderr).toBe(0);
    expect(traces.stdout.split('\t').slice(1, 3)).toEqual([LINK, AT]);
    const observations = await llmobs(['observations', 'list'], { env });
    expect(observations.stdout).toContain(`\t${DDE}\t`);
  });
});
