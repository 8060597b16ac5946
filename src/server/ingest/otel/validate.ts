// Refuses an OTLP trace export that cannot be converted (Langfuse's validateOtelSpanIds and the
// 400 of its traces route): spans without usable trace or span ids, and attribute, event, scope
// or span lists that are not lists. The usual cause is an OTLP logs export sent here: logs decode
// as spans without ids. One bad span rejects the whole export.

type IdRejection = 'absent' | 'not_an_id';

function idRejection(value: unknown): IdRejection | null {
  if (value === null || value === undefined) return 'absent';
  if (typeof value === 'string') return null;
  if (value instanceof Uint8Array || Array.isArray(value)) return null;
  // A Buffer that went through JSON; any other object (even with a numeric length) is refused.
  if (typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) return null;
  return 'not_an_id';
}

const notAList = (value: unknown): boolean => value !== null && value !== undefined && !Array.isArray(value);

export interface SpanCheck {
  totalSpans: number;
  invalidSpans: number;
  malformedCollections: number;
  reasons: string[];
  scopeNames: string[];
}

export function checkSpans(resourceSpans: unknown, maxScopeNames = 5): SpanCheck {
  const counts = new Map<string, number>();
  const scopes = new Set<string>();
  let totalSpans = 0;
  let invalidSpans = 0;
  let malformedCollections = 0;
  const count = (reason: string) => counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const noteScope = (name: unknown) => {
    if (name && scopes.size < maxScopeNames) scopes.add(String(name));
  };
  // Langfuse takes a resourceSpans that is not a list (or holds no objects) with a 200 and then
  // drops it in its worker; an export of that shape is refused here instead (docs/local-server.md).
  if (!Array.isArray(resourceSpans)) {
    if (resourceSpans === null || resourceSpans === undefined) return { totalSpans, invalidSpans, malformedCollections, reasons: [], scopeNames: [] };
    return { totalSpans, invalidSpans, malformedCollections: 1, reasons: ['resourceSpans:not_an_array'], scopeNames: [] };
  }
  for (const resourceSpan of resourceSpans as any[]) {
    if (typeof resourceSpan !== 'object' || resourceSpan === null || Array.isArray(resourceSpan)) {
      malformedCollections++;
      count('resourceSpans:not_a_list_of_objects');
      continue;
    }
    if (notAList(resourceSpan?.resource?.attributes)) {
      malformedCollections++;
      count('resource.attributes:not_an_array');
    }
    const scopeSpans = resourceSpan?.scopeSpans;
    if (!Array.isArray(scopeSpans)) {
      if (scopeSpans !== null && scopeSpans !== undefined) {
        malformedCollections++;
        count('scopeSpans:not_an_array');
      }
      continue;
    }
    for (const scopeSpan of scopeSpans) {
      if (notAList(scopeSpan?.scope?.attributes)) {
        malformedCollections++;
        count('scope.attributes:not_an_array');
        noteScope(scopeSpan?.scope?.name);
      }
      const spans = scopeSpan?.spans;
      if (!Array.isArray(spans)) {
        if (spans !== null && spans !== undefined) {
          malformedCollections++;
          count('spans:not_an_array');
          noteScope(scopeSpan?.scope?.name);
        }
        continue;
      }
      for (const span of spans) {
        totalSpans++;
        const reasons: string[] = [];
        for (const kind of ['traceId', 'spanId'] as const) {
          const r = idRejection(span?.[kind]);
          if (r) reasons.push(`${kind}:${r}`);
        }
        if (span?.parentSpanId) {
          const r = idRejection(span.parentSpanId);
          if (r) reasons.push(`parentSpanId:${r}`);
        }
        if (notAList(span?.attributes)) reasons.push('attributes:not_an_array');
        if (notAList(span?.events)) reasons.push('events:not_an_array');
        else if (Array.isArray(span?.events) && span.events.some((e: any) => notAList(e?.attributes))) reasons.push('event.attributes:not_an_array');
        if (reasons.length === 0) continue;
        invalidSpans++;
        reasons.forEach(count);
        noteScope(scopeSpan?.scope?.name);
      }
    }
  }
  return { totalSpans, invalidSpans, malformedCollections, reasons: [...counts.keys()], scopeNames: [...scopes] };
}

/** The 400 message for an export `checkSpans` found unprocessable, or undefined when it is fine. */
export function rejectionMessage(check: SpanCheck): string | undefined {
  if (check.invalidSpans === 0 && check.malformedCollections === 0) return undefined;
  const problems: string[] = [];
  if (check.invalidSpans > 0) problems.push(`${check.invalidSpans} of ${check.totalSpans} span(s) cannot be processed`);
  if (check.malformedCollections > 0) problems.push(`${check.malformedCollections} resource- or scope-level field(s) are present but not arrays`);
  const hints: string[] = [];
  if (check.reasons.some((r) => r.endsWith(':absent') || r.endsWith(':not_an_id'))) {
    hints.push('traceId and spanId are required on every span, and each must be a string or a byte array.');
  }
  if (check.reasons.some((r) => r.startsWith('resourceSpans:'))) hints.push('resourceSpans must be a list of ResourceSpans objects.');
  if (check.reasons.some((r) => r.endsWith(':not_an_array') && !r.startsWith('resourceSpans:'))) {
    hints.push('scopeSpans, spans, attributes and events must all be arrays — OTLP attributes are a list of {key, value} entries, not a JSON object.');
  }
  return (
    `Invalid OTLP trace export: ${problems.join('; ')} (${check.reasons.join(', ')}). ${hints.join(' ')} ` +
    'The entire export was rejected and no spans were ingested. ' +
    `Instrumentation scopes: ${check.scopeNames.join(', ') || 'unknown'}. ` +
    'This endpoint accepts OpenTelemetry traces only — if you are exporting OpenTelemetry logs, point your log exporter elsewhere.'
  );
}
