// The CLI in-process against a real local server, with every request recorded on the way and
// checked against the Langfuse contract.
import { expect } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/index.js';
import { type InProcessOptions, type InProcessResult, isolatedEnv, runInProcess } from './cli.js';
import { checkRequest } from './contract.js';
import { type Recorded, recordingDispatcher } from './recorder.js';

export interface LocalRun extends InProcessResult {
  /** What this run sent, in order. */
  sent: Recorded[];
}

export interface LocalCli {
  server: RunningServer;
  run(argv: string[], options?: Omit<InProcessOptions, 'env' | 'dispatcher'>): Promise<LocalRun>;
  /** Creates a prompt version directly over HTTP, for setting up a case. */
  seed(body: Record<string, unknown>): Promise<{ version: number; labels: string[] }>;
  /** Adds labels to a version directly over HTTP; the server does not check their format. */
  seedLabels(name: string, version: number, newLabels: string[]): Promise<void>;
  close(): Promise<void>;
}

/** `options.writeMode`: the server's (events_only by default, as Langfuse's). */
export async function localCli(options: Pick<ServerOptions, 'writeMode'> = {}): Promise<LocalCli> {
  const server = await startServer({ port: 0, ephemeral: true, ...options });
  const recorder = recordingDispatcher();
  const env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
  const auth = `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;
  return {
    server,
    async run(argv, options = {}) {
      const start = recorder.requests.length;
      const result = await runInProcess(argv, { env, dispatcher: recorder.dispatcher, ...options });
      const sent = recorder.requests.slice(start);
      for (const request of sent) {
        expect(checkRequest(request.method, request.path, request.body), `${request.method} ${request.path}`).toEqual([]);
      }
      return { ...result, sent };
    },
    async seed(body) {
      const response = await fetch(`${server.url}/api/public/v2/prompts`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`seed failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as { version: number; labels: string[] };
    },
    async seedLabels(name, version, newLabels) {
      const response = await fetch(`${server.url}/api/public/v2/prompts/${encodeURIComponent(name)}/versions/${version}`, {
        method: 'PATCH',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ newLabels }),
      });
      if (response.status !== 200) throw new Error(`seedLabels failed: ${response.status} ${await response.text()}`);
    },
    async close() {
      await recorder.close();
      await server.close();
    },
  };
}
