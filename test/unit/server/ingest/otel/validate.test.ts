import { describe, expect, it } from 'vitest';
import { checkSpans, rejectionMessage } from '../../../../../src/server/ingest/otel/validate.js';

describe('export checks', () => {
  it('refuses spans without ids, naming the defect', () => {
    const check = checkSpans([{ scopeSpans: [{ scope: { name: 'logs' }, spans: [{ name: 'x' }, { traceId: 't', spanId: 's', attributes: { k: 'v' } }] }] }]);
    expect(check).toMatchObject({ totalSpans: 2, invalidSpans: 2 });
    const message = rejectionMessage(check)!;
    expect(message).toContain('Invalid OTLP trace export: 2 of 2 span(s) cannot be processed (traceId:absent, spanId:absent, attributes:not_an_array).');
    expect(message).toContain('Instrumentation scopes: logs.');
  });

  it('accepts absent and empty lists', () => {
    expect(rejectionMessage(checkSpans([{}, { scopeSpans: [] }, { scopeSpans: [{ spans: [] }] }]))).toBeUndefined();
  });
});
