// The OTLP/HTTP protobuf messages Warden decodes (requests) and encodes (answers), as protobufjs JSON descriptors
// written from the official opentelemetry-proto definitions (opentelemetry/proto/{common,resource,logs,trace,
// metrics}/v1/*.proto and collector/{logs,trace,metrics}/v1/*_service.proto): same field names, numbers and wire
// types. Why descriptors here and not the shipped package: @opentelemetry/otlp-transformer only serialises
// requests and parses answers (an exporter's side), it has no request decoder, and the opentelemetry-proto
// repository ships `.proto` files, not a JavaScript package. protobufjs (maintained, already a dependency) does the
// decoding. Enum fields are declared `int32` (the same varint on the wire), so numbers come back as numbers.
import protobuf from 'protobufjs';

type Fields = Record<string, { type: string; id: number; rule?: 'repeated' }>;
const message = (fields: Fields, oneofs?: Record<string, string[]>) => ({ fields, ...(oneofs ? { oneofs: Object.fromEntries(Object.entries(oneofs).map(([k, v]) => [k, { oneof: v }])) } : {}) });
const repeated = (type: string, id: number) => ({ type, id, rule: 'repeated' as const });

const common = {
  AnyValue: message({
    stringValue: { type: 'string', id: 1 }, boolValue: { type: 'bool', id: 2 }, intValue: { type: 'int64', id: 3 },
    doubleValue: { type: 'double', id: 4 }, arrayValue: { type: 'ArrayValue', id: 5 }, kvlistValue: { type: 'KeyValueList', id: 6 },
    bytesValue: { type: 'bytes', id: 7 },
  }, { value: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] }),
  ArrayValue: message({ values: repeated('AnyValue', 1) }),
  KeyValueList: message({ values: repeated('KeyValue', 1) }),
  KeyValue: message({ key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } }),
  InstrumentationScope: message({
    name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 }, attributes: repeated('KeyValue', 3),
    droppedAttributesCount: { type: 'uint32', id: 4 },
  }),
  Resource: message({ attributes: repeated('KeyValue', 1), droppedAttributesCount: { type: 'uint32', id: 2 } }),
};

const logs = {
  ResourceLogs: message({ resource: { type: 'Resource', id: 1 }, scopeLogs: repeated('ScopeLogs', 2), schemaUrl: { type: 'string', id: 3 } }),
  ScopeLogs: message({ scope: { type: 'InstrumentationScope', id: 1 }, logRecords: repeated('LogRecord', 2), schemaUrl: { type: 'string', id: 3 } }),
  LogRecord: message({
    timeUnixNano: { type: 'fixed64', id: 1 }, observedTimeUnixNano: { type: 'fixed64', id: 11 }, severityNumber: { type: 'int32', id: 2 },
    severityText: { type: 'string', id: 3 }, body: { type: 'AnyValue', id: 5 }, attributes: repeated('KeyValue', 6),
    droppedAttributesCount: { type: 'uint32', id: 7 }, flags: { type: 'fixed32', id: 8 }, traceId: { type: 'bytes', id: 9 },
    spanId: { type: 'bytes', id: 10 }, eventName: { type: 'string', id: 12 },
  }),
  ExportLogsServiceRequest: message({ resourceLogs: repeated('ResourceLogs', 1) }),
  ExportLogsServiceResponse: message({ partialSuccess: { type: 'ExportLogsPartialSuccess', id: 1 } }),
  ExportLogsPartialSuccess: message({ rejectedLogRecords: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } }),
};

const traces = {
  ResourceSpans: message({ resource: { type: 'Resource', id: 1 }, scopeSpans: repeated('ScopeSpans', 2), schemaUrl: { type: 'string', id: 3 } }),
  ScopeSpans: message({ scope: { type: 'InstrumentationScope', id: 1 }, spans: repeated('Span', 2), schemaUrl: { type: 'string', id: 3 } }),
  Span: message({
    traceId: { type: 'bytes', id: 1 }, spanId: { type: 'bytes', id: 2 }, traceState: { type: 'string', id: 3 },
    parentSpanId: { type: 'bytes', id: 4 }, flags: { type: 'fixed32', id: 16 }, name: { type: 'string', id: 5 },
    kind: { type: 'int32', id: 6 }, startTimeUnixNano: { type: 'fixed64', id: 7 }, endTimeUnixNano: { type: 'fixed64', id: 8 },
    attributes: repeated('KeyValue', 9), droppedAttributesCount: { type: 'uint32', id: 10 }, events: repeated('SpanEvent', 11),
    droppedEventsCount: { type: 'uint32', id: 12 }, links: repeated('SpanLink', 13), droppedLinksCount: { type: 'uint32', id: 14 },
    status: { type: 'Status', id: 15 },
  }),
  SpanEvent: message({
    timeUnixNano: { type: 'fixed64', id: 1 }, name: { type: 'string', id: 2 }, attributes: repeated('KeyValue', 3),
    droppedAttributesCount: { type: 'uint32', id: 4 },
  }),
  SpanLink: message({
    traceId: { type: 'bytes', id: 1 }, spanId: { type: 'bytes', id: 2 }, traceState: { type: 'string', id: 3 },
    attributes: repeated('KeyValue', 4), droppedAttributesCount: { type: 'uint32', id: 5 }, flags: { type: 'fixed32', id: 6 },
  }),
  Status: message({ message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } }),
  ExportTraceServiceRequest: message({ resourceSpans: repeated('ResourceSpans', 1) }),
  ExportTraceServiceResponse: message({ partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } }),
  ExportTracePartialSuccess: message({ rejectedSpans: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } }),
};

const points = {
  attributes: (id: number) => repeated('KeyValue', id),
  start: { type: 'fixed64', id: 2 },
  time: { type: 'fixed64', id: 3 },
};

const metrics = {
  ResourceMetrics: message({ resource: { type: 'Resource', id: 1 }, scopeMetrics: repeated('ScopeMetrics', 2), schemaUrl: { type: 'string', id: 3 } }),
  ScopeMetrics: message({ scope: { type: 'InstrumentationScope', id: 1 }, metrics: repeated('Metric', 2), schemaUrl: { type: 'string', id: 3 } }),
  Metric: message({
    name: { type: 'string', id: 1 }, description: { type: 'string', id: 2 }, unit: { type: 'string', id: 3 },
    gauge: { type: 'Gauge', id: 5 }, sum: { type: 'Sum', id: 7 }, histogram: { type: 'Histogram', id: 9 },
    exponentialHistogram: { type: 'ExponentialHistogram', id: 10 }, summary: { type: 'Summary', id: 11 },
    metadata: repeated('KeyValue', 12),
  }, { data: ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] }),
  Gauge: message({ dataPoints: repeated('NumberDataPoint', 1) }),
  Sum: message({ dataPoints: repeated('NumberDataPoint', 1), aggregationTemporality: { type: 'int32', id: 2 }, isMonotonic: { type: 'bool', id: 3 } }),
  Histogram: message({ dataPoints: repeated('HistogramDataPoint', 1), aggregationTemporality: { type: 'int32', id: 2 } }),
  ExponentialHistogram: message({ dataPoints: repeated('ExponentialHistogramDataPoint', 1), aggregationTemporality: { type: 'int32', id: 2 } }),
  Summary: message({ dataPoints: repeated('SummaryDataPoint', 1) }),
  NumberDataPoint: message({
    attributes: points.attributes(7), startTimeUnixNano: points.start, timeUnixNano: points.time,
    asDouble: { type: 'double', id: 4 }, asInt: { type: 'sfixed64', id: 6 }, exemplars: repeated('Exemplar', 5), flags: { type: 'uint32', id: 8 },
  }, { value: ['asDouble', 'asInt'] }),
  HistogramDataPoint: message({
    attributes: points.attributes(9), startTimeUnixNano: points.start, timeUnixNano: points.time, count: { type: 'fixed64', id: 4 },
    sum: { type: 'double', id: 5 }, bucketCounts: repeated('fixed64', 6), explicitBounds: repeated('double', 7),
    exemplars: repeated('Exemplar', 8), flags: { type: 'uint32', id: 10 }, min: { type: 'double', id: 11 }, max: { type: 'double', id: 12 },
  }),
  ExponentialHistogramDataPoint: message({
    attributes: points.attributes(1), startTimeUnixNano: points.start, timeUnixNano: points.time, count: { type: 'fixed64', id: 4 },
    sum: { type: 'double', id: 5 }, scale: { type: 'sint32', id: 6 }, zeroCount: { type: 'fixed64', id: 7 },
    positive: { type: 'Buckets', id: 8 }, negative: { type: 'Buckets', id: 9 }, flags: { type: 'uint32', id: 10 },
    exemplars: repeated('Exemplar', 11), min: { type: 'double', id: 12 }, max: { type: 'double', id: 13 }, zeroThreshold: { type: 'double', id: 14 },
  }),
  Buckets: message({ offset: { type: 'sint32', id: 1 }, bucketCounts: repeated('uint64', 2) }),
  SummaryDataPoint: message({
    attributes: points.attributes(7), startTimeUnixNano: points.start, timeUnixNano: points.time, count: { type: 'fixed64', id: 4 },
    sum: { type: 'double', id: 5 }, quantileValues: repeated('ValueAtQuantile', 6), flags: { type: 'uint32', id: 8 },
  }),
  ValueAtQuantile: message({ quantile: { type: 'double', id: 1 }, value: { type: 'double', id: 2 } }),
  Exemplar: message({
    filteredAttributes: repeated('KeyValue', 7), timeUnixNano: { type: 'fixed64', id: 2 }, asDouble: { type: 'double', id: 3 },
    asInt: { type: 'sfixed64', id: 6 }, spanId: { type: 'bytes', id: 4 }, traceId: { type: 'bytes', id: 5 },
  }, { value: ['asDouble', 'asInt'] }),
  ExportMetricsServiceRequest: message({ resourceMetrics: repeated('ResourceMetrics', 1) }),
  ExportMetricsServiceResponse: message({ partialSuccess: { type: 'ExportMetricsPartialSuccess', id: 1 } }),
  ExportMetricsPartialSuccess: message({ rejectedDataPoints: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } }),
};

// One flat namespace: the official packages never reuse a message name across the files used here.
const root = protobuf.Root.fromJSON({ nested: { otlp: { nested: { ...common, ...logs, ...traces, ...metrics } } } });
const type = (name: string) => root.lookupType(`otlp.${name}`);

export const SIGNALS = ['logs', 'metrics', 'traces'] as const;
export type Signal = (typeof SIGNALS)[number];

/** Per signal: the request and answer messages, and the name of the answer's rejected-count field. */
export const OTLP_MESSAGES: Record<Signal, { request: protobuf.Type; response: protobuf.Type; rejectedField: string }> = {
  logs: { request: type('ExportLogsServiceRequest'), response: type('ExportLogsServiceResponse'), rejectedField: 'rejectedLogRecords' },
  metrics: { request: type('ExportMetricsServiceRequest'), response: type('ExportMetricsServiceResponse'), rejectedField: 'rejectedDataPoints' },
  traces: { request: type('ExportTraceServiceRequest'), response: type('ExportTraceServiceResponse'), rejectedField: 'rejectedSpans' },
};
