// Two local servers as two projects (or regions), with a profile for each, and the CLI run
// in-process with every request recorded and checked against the Langfuse contract.
import { expect } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { type InProcessOptions, type InProcessResult, isolatedEnv, runInProcess } from './cli.js';
import { checkRequest } from './contract.js';
import { type Recorded, recordingDispatcher } from './recorder.js';

export interface ProjectsRun extends InProcessResult {
  sent: Recorded[];
  /** Writes (not GET) that reached `server`. */
  writesTo(server: RunningServer): Recorded[];
}

export interface TwoProjects {
  source: RunningServer;
  destination: RunningServer;
  env: Record<string, string | undefined>;
  run(argv: string[], options?: Omit<InProcessOptions, 'env' | 'dispatcher'>): Promise<ProjectsRun>;
  /** POSTs a prompt version straight to a server. */
  seed(server: RunningServer, body: Record<string, unknown>): Promise<{ version: number }>;
  get(server: RunningServer, path: string): Promise<any>;
  close(): Promise<void>;
}

const auth = (server: RunningServer) => `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;

export async function twoProjects(): Promise<TwoProjects> {
  const [source, destination] = await Promise.all([startServer({ port: 0, ephemeral: true }), startServer({ port: 0, ephemeral: true })]);
  const env = isolatedEnv();
  for (const [name, server] of [['source', source], ['destination', destination]] as const) {
    const added = await runInProcess(['profile', 'add', name, '--base-url', server.url, '--public-key', server.keys.publicKey, '--secret-key-stdin'], { env, stdin: server.keys.secretKey });
    if (added.exitCode !== 0) throw new Error(`profile add: ${added.stderr}`);
  }
  const recorder = recordingDispatcher();
  const origin = (server: RunningServer) => new URL(server.url).origin;
  return {
    source,
    destination,
    env,
    async run(argv, options = {}) {
      const start = recorder.requests.length;
      const result = await runInProcess(argv, { env, dispatcher: recorder.dispatcher, ...options });
      const sent = recorder.requests.slice(start);
      for (const request of sent) expect(checkRequest(request.method, request.path, request.body), `${request.method} ${request.path}`).toEqual([]);
      return { ...result, sent, writesTo: (server) => sent.filter((r) => r.method !== 'GET' && r.origin === origin(server)) };
    },
    async seed(server, body) {
      const response = await fetch(`${server.url}/api/public/v2/prompts`, { method: 'POST', headers: { authorization: auth(server), 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (response.status !== 201) throw new Error(`seed: ${response.status} ${await response.text()}`);
      return (await response.json()) as { version: number };
    },
    async get(server, path) {
      const response = await fetch(`${server.url}${path}`, { headers: { authorization: auth(server) } });
      return response.json();
    },
    async close() {
      await recorder.close();
      await Promise.all([source.close(), destination.close()]);
    },
  };
}
