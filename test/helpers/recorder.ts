// A MockAgent that records every request the CLI sends to one origin and answers from a function.
import { MockAgent } from 'undici';

export interface Recorded {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export type Responder = (request: Recorded) => { status: number; body?: unknown; headers?: Record<string, string> };

export function recordingAgent(origin: string, respond: Responder): { agent: MockAgent; requests: Recorded[] } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const requests: Recorded[] = [];
  agent
    .get(origin)
    .intercept({ path: () => true, method: () => true })
    .reply((options) => {
      const text = typeof options.body === 'string' ? options.body : options.body ? Buffer.from(options.body as Uint8Array).toString('utf8') : '';
      const recorded: Recorded = {
        method: options.method,
        path: options.path,
        body: text ? JSON.parse(text) : undefined,
        headers: Object.fromEntries(Object.entries((options.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), String(v)])),
      };
      requests.push(recorded);
      const answer = respond(recorded);
      return { statusCode: answer.status, data: answer.body === undefined ? '' : JSON.stringify(answer.body), responseOptions: { headers: { 'content-type': 'application/json', ...answer.headers } } };
    })
    .persist();
  return { agent, requests };
}
