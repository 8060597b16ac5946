// An undici MockAgent per test with the network disabled; after each test every interceptor
// must have been used.
import { MockAgent } from 'undici';
import { afterEach, beforeEach } from 'vitest';

/** Registers the hooks in the calling file; the returned function gives the current test's agent. */
export function useMockAgent(): () => MockAgent {
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
  return () => agent;
}
