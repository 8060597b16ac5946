// The OTLP trace export request as a protobufjs reflection descriptor: the messages of
// opentelemetry-proto (v1.5.0: common/v1, resource/v1, trace/v1 and collector/trace/v1, Apache
// License 2.0) that a trace export uses, with the same field numbers and wire types, and field
// names in the camelCase of the OTLP JSON encoding. Enums are read as their int32 values and
// fields this server does not read are left out (the decoder skips unknown fields).
export const OTLP_TRACE_DESCRIPTOR = {
  nested: {
    otlp: {
      nested: {
        AnyValue: {
          oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
          fields: {
            stringValue: { type: 'string', id: 1 },
            boolValue: { type: 'bool', id: 2 },
            intValue: { type: 'int64', id: 3 },
            doubleValue: { type: 'double', id: 4 },
            arrayValue: { type: 'ArrayValue', id: 5 },
            kvlistValue: { type: 'KeyValueList', id: 6 },
            bytesValue: { type: 'bytes', id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
        KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
        InstrumentationScope: {
          fields: {
            name: { type: 'string', id: 1 },
            version: { type: 'string', id: 2 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
            droppedAttributesCount: { type: 'uint32', id: 4 },
          },
        },
        Resource: {
          fields: {
            attributes: { rule: 'repeated', type: 'KeyValue', id: 1 },
            droppedAttributesCount: { type: 'uint32', id: 2 },
          },
        },
        Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
        SpanEvent: {
          fields: {
            timeUnixNano: { type: 'fixed64', id: 1 },
            name: { type: 'string', id: 2 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
            droppedAttributesCount: { type: 'uint32', id: 4 },
          },
        },
        Span: {
          fields: {
            traceId: { type: 'bytes', id: 1 },
            spanId: { type: 'bytes', id: 2 },
            traceState: { type: 'string', id: 3 },
            parentSpanId: { type: 'bytes', id: 4 },
            flags: { type: 'fixed32', id: 16 },
            name: { type: 'string', id: 5 },
            kind: { type: 'int32', id: 6 },
            startTimeUnixNano: { type: 'fixed64', id: 7 },
            endTimeUnixNano: { type: 'fixed64', id: 8 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
            droppedAttributesCount: { type: 'uint32', id: 10 },
            events: { rule: 'repeated', type: 'SpanEvent', id: 11 },
            droppedEventsCount: { type: 'uint32', id: 12 },
            droppedLinksCount: { type: 'uint32', id: 14 },
            status: { type: 'Status', id: 15 },
          },
        },
        ScopeSpans: {
          fields: {
            scope: { type: 'InstrumentationScope', id: 1 },
            spans: { rule: 'repeated', type: 'Span', id: 2 },
            schemaUrl: { type: 'string', id: 3 },
          },
        },
        ResourceSpans: {
          fields: {
            resource: { type: 'Resource', id: 1 },
            scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
            schemaUrl: { type: 'string', id: 3 },
          },
        },
        ExportTraceServiceRequest: { fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } } },
      },
    },
  },
} as const;
