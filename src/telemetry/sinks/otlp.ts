// The `otlp` destination: records exported as OTLP log records to a collector with the official OpenTelemetry
// exporters (OTLP/HTTP, JSON or protobuf). The SDK's LoggerProvider builds the log records (resource, scope,
// timestamps) and a processor of ours collects them, so the batching, buffering and retries stay the queue's
// (queue.ts) like every other destination's instead of the SDK's batch processor, which drops on overflow
// without telling anyone.
import { SeverityNumber } from '@opentelemetry/api';
import { OTLPLogExporter as JsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtobufExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { LoggerProvider, type LogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { EventRecord } from '../events/record.js';
import type { Deliver } from './queue.js';

export interface OtlpOptions {
  url: string;
  protocol: 'http/json' | 'http/protobuf';
  headers: Record<string, string>;
  timeoutMs: number;
  version: string;
}

/** ExportResultCode.SUCCESS of @opentelemetry/core (a dependency of the exporters, not of Warden). */
const EXPORT_SUCCESS = 0;

const SEVERITY: Record<string, SeverityNumber> = {
  CRITICAL: SeverityNumber.FATAL, HIGH: SeverityNumber.ERROR, MEDIUM: SeverityNumber.WARN, LOW: SeverityNumber.INFO2,
  INFO: SeverityNumber.INFO, NONE: SeverityNumber.INFO,
};

export interface OtlpDestination {
  deliver: Deliver<EventRecord>;
  shutdown(): Promise<void>;
}

export function otlpLogs({ url, protocol, headers, timeoutMs, version }: OtlpOptions): OtlpDestination {
  const config = { url, headers, timeoutMillis: timeoutMs };
  const exporter = protocol === 'http/json' ? new JsonExporter(config) : new ProtobufExporter(config);
  let collected: ReadableLogRecord[] = [];
  const collector: LogRecordProcessor = {
    onEmit: (record) => void collected.push(record),
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new LoggerProvider({ processors: [collector] });
  const logger = provider.getLogger('warden', version);

  const deliver: Deliver<EventRecord> = (batch) => {
    collected = [];
    for (const record of batch) {
      logger.emit({
        eventName: `warden.${record.kind}`,
        timestamp: new Date(record.time),
        severityText: record.severity,
        severityNumber: SEVERITY[record.severity ?? 'INFO'] ?? SeverityNumber.INFO,
        // The whole envelope as the body: the collector gets what every other destination gets.
        body: JSON.parse(JSON.stringify(record)) as Record<string, never>,
        attributes: {
          'warden.record.kind': record.kind, 'warden.record.name': record.name, 'warden.record.id': record.id,
          ...Object.fromEntries(Object.entries(record.anchors).map(([k, v]) => [`warden.${k}`, v])),
        },
      });
    }
    const records = collected;
    collected = [];
    return new Promise<void>((resolve, reject) => {
      exporter.export(records, (result) => {
        if (result.code === EXPORT_SUCCESS) resolve();
        else reject(result.error ?? new Error('OTLP export failed'));
      });
    });
  };
  return {
    deliver,
    async shutdown() {
      await provider.shutdown();
      await exporter.shutdown();
    },
  };
}
