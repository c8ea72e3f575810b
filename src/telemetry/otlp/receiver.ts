// The OTLP receiver's domain side (no HTTP): body bytes in, records stored and handed on, the OTLP answer out.
// Undo gzip, decode (protobuf or JSON), normalise to records, store them in one transaction, give each to
// `onRecord` (the event writer, connected by the gateway), and answer success or partial success in the
// request's encoding.
import type { TelemetryRecord } from '../records.js';
import type { TelemetryStore } from '../store/store.js';
import { decodeRequest, decompress, encodeAnswer, type OtlpEncoding } from './decode.js';
import { normalise } from './normalise.js';
import type { Signal } from './proto.js';

export interface ReceiverOptions {
  /** Keep prompt text in stored records (telemetry.store_prompt_text); otherwise only its length and hash. */
  storePromptText: boolean;
  /** Decompressed bodies past this are refused (OtlpBodyTooLarge), as raw ones are by the route. */
  maxBodyBytes: number;
  /** Each stored record, after its transaction committed. A throwing callback never fails the ingest. */
  onRecord?: (record: TelemetryRecord) => void;
  onRecordError?: (err: Error) => void;
}

export interface IngestRequest {
  encoding: OtlpEncoding;
  contentEncoding?: string;
  source?: string;
  refusedSources?: ReadonlySet<string>;
}

export interface IngestResult {
  accepted: number;
  rejected: number;
  answer: { contentType: string; body: Buffer | string };
}

export class OtlpReceiver {
  constructor(private readonly store: TelemetryStore, private readonly options: ReceiverOptions) {}

  async ingest(signal: Signal, body: Buffer, request: IngestRequest): Promise<IngestResult> {
    const raw = await decompress(body, request.contentEncoding, this.options.maxBodyBytes);
    const decoded = decodeRequest(signal, raw, request.encoding);
    const { records, rejected, reasons } = normalise(signal, decoded, {
      source: request.source,
      storePromptText: this.options.storePromptText,
      refusedSources: request.refusedSources,
    });
    this.store.insert(records);
    const { onRecord } = this.options;
    if (onRecord) {
      for (const record of records) {
        try {
          onRecord(record);
        } catch (err) {
          this.options.onRecordError?.(err as Error);
        }
      }
    }
    const message = rejected > 0 ? [...reasons].join('; ') : '';
    return { accepted: records.length, rejected, answer: encodeAnswer(signal, request.encoding, rejected, message) };
  }
}
