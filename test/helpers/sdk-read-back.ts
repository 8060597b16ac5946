// What the SDK tests send and how they read it back: the same generations from every client (usage
// given, chat input to tokenize, a prompt link, a tiered model), a server in a write mode with the
// prompt they link to, and the reads each mode has (the trace and v1 observations in legacy and
// dual, v2 observations through `llmobs api` in dual and events_only), compared with what
// `llmobs estimate` (the built binary) says for the same generations.
import { expect } from 'vitest';
import type { WriteMode } from '../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs } from './bin.js';
import { isolatedEnv } from './cli.js';
import { apiCaller } from './server-api.js';

export const chat = [
  { role: 'system', content: 'You answer in one short sentence.' },
  { role: 'user', content: 'What is the capital of Australia?' },
];
export const answer = 'Canberra is the capital of Australia.';
export const PROMPT = 'support-answer';

export const generations = {
  withUsage: { model: 'gpt-4o', input: chat, output: answer, usageDetails: { input: 120, output: 30 } },
  tokenized: { model: 'gpt-4o', input: chat, output: answer },
  prompted: { model: 'gpt-4o-mini', input: 'Answer briefly: What is the capital of Australia?', output: answer },
  tiered: { model: 'gemini-2.5-pro', input: 'long document', output: 'summary', usageDetails: { input: 250_000, output: 1_000 } },
};
export type Name = keyof typeof generations;
export const names = Object.keys(generations) as Name[];

/** What `llmobs estimate --batch` says for each generation (one process for all of them). */
export async function estimates(list: object[]): Promise<any[]> {
  const result = await llmobs(['estimate', '--batch', '-', '--json'], { input: list.map((g) => JSON.stringify(g)).join('\n') + '\n' });
  expect(result.exitCode).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.line !== undefined);
}

/** A server in `writeMode` with the prompt the generations link to. */
export async function serverWithPrompt(writeMode: WriteMode): Promise<RunningServer> {
  const server = await startServer({ port: 0, ephemeral: true, writeMode });
  const created = await apiCaller(() => server)('POST', '/api/public/v2/prompts', { name: PROMPT, type: 'text', prompt: 'Answer briefly: {{question}}', labels: ['production'] });
  expect(created.status).toBe(201);
  return server;
}

export interface ReadBack {
  writeMode: WriteMode;
  /** GET /api/public/traces/{id} (legacy, dual). */
  trace: any;
  /** GET /api/public/observations/{id} for each generation (legacy, dual). */
  v1: Record<Name, any> | undefined;
  /** GET /api/public/v2/observations?traceId=… through `llmobs api`, by id (dual, events_only). */
  v2: Map<string, any> | undefined;
  /** GET /api/public/v3/scores?traceId=… (every mode). */
  scores: any[];
  promptId: string;
}

/** Reads the trace, its generations and its scores back through the routes the mode has, then closes the server. */
export async function readBack(server: RunningServer, traceId: string, ids: Record<string, string>): Promise<ReadBack> {
  try {
    const call = apiCaller(() => server);
    const v3Reads = server.writeMode !== 'events_only';
    let trace: any;
    let v1: Record<string, any> | undefined;
    if (v3Reads) {
      const got = await call('GET', `/api/public/traces/${traceId}`);
      expect(got.status).toBe(200);
      trace = got.body;
      v1 = {};
      for (const [name, id] of Object.entries(ids)) {
        const observation = await call('GET', `/api/public/observations/${id}`);
        expect(observation.status).toBe(200);
        v1[name] = observation.body;
      }
    }
    let v2: Map<string, any> | undefined;
    if (server.writeMode !== 'legacy') {
      const listed = await llmobs(['api', 'GET', '/api/public/v2/observations', '-f', `traceId=${traceId}`, '-f', 'fields=core,basic,usage,model,prompt'], {
        env: { ...isolatedEnv(), LANGFUSE_BASE_URL: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey },
      });
      expect(listed.exitCode, listed.stderr).toBe(0);
      v2 = new Map<string, any>((JSON.parse(listed.stdout).data as any[]).map((o) => [o.id, o]));
    }
    const scores = await call('GET', `/api/public/v3/scores?traceId=${traceId}&fields=core,subject`);
    expect(scores.status).toBe(200);
    const prompt = await call('GET', `/api/public/v2/prompts/${PROMPT}?version=1`, undefined, { unchecked: true });
    return { writeMode: server.writeMode, trace, v1: v1 as Record<Name, any> | undefined, v2, scores: scores.body.data, promptId: prompt.body.id };
  } finally {
    await server.close();
  }
}

/** Each read of the generation the mode has, v1 and v2 alike. */
export function readsOf(read: ReadBack, name: Name, id: string): any[] {
  const out = [read.v1?.[name], read.v2?.get(id)].filter((o) => o !== undefined);
  expect(out.length, `no read of ${name} in ${read.writeMode}`).toBe(read.writeMode === 'dual' ? 2 : 1);
  return out;
}

/** The generation as read back carries what `llmobs estimate` computes for the same generation. */
export function expectPricedAsEstimated(read: ReadBack, name: Name, id: string, estimated: any) {
  if (read.v1) {
    const v1 = read.v1[name];
    expect(v1.usageDetails).toEqual(estimated.usageDetails);
    expect(v1.costDetails).toEqual(estimated.costDetails);
    expect(v1.calculatedTotalCost).toBe(estimated.totalCost ?? 0);
    expect(v1.modelId).toBe(estimated.matchedModel?.id ?? null);
    expect(v1.usagePricingTierName).toBe(estimated.pricingTier);
  }
  if (read.v2) {
    expect(read.v2.get(id)).toMatchObject({
      usageDetails: estimated.usageDetails,
      costDetails: estimated.costDetails,
      totalCost: estimated.totalCost ?? 0,
      usagePricingTierName: estimated.pricingTier,
      modelId: estimated.matchedModel?.id ?? null,
    });
  }
}

export function expectCommonOutcome(read: ReadBack, ids: Record<Name, string>) {
  for (const o of readsOf(read, 'tokenized', ids.tokenized)) expect(o.usageDetails.input).toBeGreaterThan(10);
  for (const o of readsOf(read, 'prompted', ids.prompted)) expect(o).toMatchObject({ promptId: read.promptId, promptName: PROMPT, promptVersion: 1 });
  for (const o of readsOf(read, 'tiered', ids.tiered)) expect(o.usagePricingTierName).toBe('Large Context');
  for (const o of readsOf(read, 'withUsage', ids.withUsage)) expect(o.usagePricingTierName).toBe('Standard');
}
