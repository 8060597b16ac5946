// A MockAgent that records every request the CLI sends to one origin and answers from a function.
import { Agent, type Dispatcher, MockAgent } from 'undici';

export interface Recorded {
  /** Set for requests that went to a real server (recordingDispatcher). */
  origin?: string;
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

/**
 * A real undici Agent that records every request before sending it on: the CLI talks to a real
 * server (the local one) and the test still sees exactly what went over the wire.
 */
export function recordingDispatcher(): { dispatcher: Dispatcher; requests: Recorded[]; close: () => Promise<void> } {
  const agent = new Agent();
  const requests: Recorded[] = [];
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    const text = typeof options.body === 'string' ? options.body : options.body instanceof Uint8Array ? Buffer.from(options.body).toString('utf8') : '';
    const headers: Record<string, string> = {};
    const raw = options.headers;
    if (Array.isArray(raw)) for (let i = 0; i + 1 < raw.length; i += 2) headers[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
    else if (raw && typeof raw === 'object') for (const [key, value] of Object.entries(raw)) headers[key.toLowerCase()] = String(value);
    requests.push({ origin: String(options.origin), method: options.method, path: options.path, body: text ? JSON.parse(text) : undefined, headers });
    return dispatch(options, handler);
  });
  return { dispatcher, requests, close: () => agent.close() };
}
