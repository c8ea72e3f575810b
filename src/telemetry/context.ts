// The telemetry objects the sidecar holds for its lifetime: the OTLP store and receiver, the scoped OTLP
// credentials, and the correlation ledger over the audit trail and the OTLP records. Opened by the gateway at
// start (and on restart, which is how a newly issued scoped token is picked up).
import { AuditReader } from '../audit/reader.js';
import { CorrelationLedger } from './correlation/ledger.js';
import { credentialsPath, ScopedCredentials } from './otlp/credentials.js';
import { OtlpReceiver } from './otlp/receiver.js';
import type { TelemetryRecord } from './records.js';
import { telemetryDbPath, TelemetryStore } from './store/store.js';

export interface TelemetryContext {
  store: TelemetryStore;
  receiver: OtlpReceiver;
  credentials: ScopedCredentials;
  ledger: CorrelationLedger;
  close(): void;
}

export interface TelemetryOptions {
  home: string;
  auditDb: string;
  retentionDays: number;
  storePromptText: boolean;
  maxBodyBytes: number;
  /** Each stored OTLP record (the event writer's input). */
  onRecord?: (record: TelemetryRecord) => void;
  onError?: (err: Error) => void;
}

export function openTelemetry(options: TelemetryOptions): TelemetryContext {
  const store = new TelemetryStore(telemetryDbPath(options.home));
  let reader: AuditReader | undefined;
  try {
    reader = new AuditReader(options.auditDb);
    store.startRetention(options.retentionDays, options.onError);
    const receiver = new OtlpReceiver(store, {
      storePromptText: options.storePromptText, maxBodyBytes: options.maxBodyBytes, onRecord: options.onRecord, onRecordError: options.onError,
    });
    const ledger = new CorrelationLedger(reader.db, store.db);
    const credentials = new ScopedCredentials(credentialsPath(options.home));
    const auditReader = reader;
    return {
      store, receiver, credentials, ledger,
      close() {
        store.close();
        auditReader.close();
      },
    };
  } catch (err) {
    reader?.close();
    store.close();
    throw err;
  }
}
