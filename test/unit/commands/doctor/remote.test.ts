// doctor's checks of the server's clock and version.
import { describe, expect, it } from 'vitest';
import { clockCheck, versionCheck } from '../../../../src/commands/doctor/remote.js';

describe('doctor on local setup', () => {

  it('compares clocks allowing for the round trip and the header\'s whole seconds', () => {
    const now = Date.parse('2026-05-01T12:00:00.300Z');
    expect(clockCheck('Fri, 01 May 2026 12:00:00 GMT', now - 200, now + 200).status).toBe('ok');
    expect(clockCheck('Fri, 01 May 2026 12:02:30 GMT', now, now).status).toBe('warn');
    expect(clockCheck('Fri, 01 May 2026 11:50:00 GMT', now, now)).toMatchObject({ status: 'fail', summary: "this machine's clock is 10 min 0 s ahead of the server's" });
    expect(clockCheck(undefined, now, now).status).toBe('skip');
    expect(versionCheck('2.9.0').status).toBe('warn');
    expect(versionCheck('4.40.1')).toMatchObject({ status: 'ok', summary: 'Langfuse 4.40.1' });
  });
});
