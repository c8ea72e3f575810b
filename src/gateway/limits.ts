// Resource limits of the sidecar API, in one table (documented in docs/configuration.md "Limits"). The limits
// every listener shares (slow clients, connections per address) are in src/util/connection-limits.ts.
import { defineLimits, KiB, MiB } from '../util/limit-table.js';

export const SIDECAR_LIMITS = defineLimits('Sidecar API', 'src/gateway/limits.ts', {
  ordinaryBodyBytes: { value: 1 * MiB, unit: 'bytes', what: 'Request body of a sidecar route; a larger one is refused with 413 while it is read.' },
  otlpBodyBytes: { value: 64 * MiB, unit: 'bytes', what: 'Request body of the OTLP receiver routes (`/v1/logs`, `/v1/metrics`, `/v1/traces`, `/otlp/…`).' },
  sandboxBodyBytes: { value: 256 * KiB, unit: 'bytes', what: 'Request body of the sandbox routes (`/api/v1/sandbox/…`).' },
  noBodyBytes: { value: 1 * KiB, unit: 'bytes', what: 'What a route that takes no body (key and token rotation) reads before refusing.' },
  alertsPageDefault: { value: 50, unit: 'count', what: 'Alerts in one page of `GET /alerts` when `limit` is not given.' },
  alertsPageMax: { value: 500, unit: 'count', what: 'Largest `limit` of `GET /alerts`.' },
  egressPageDefault: { value: 100, unit: 'count', what: 'Records in one answer of `GET /api/v1/network-egress` when `limit` is not given.' },
  egressPageMax: { value: 1000, unit: 'count', what: 'Largest `limit` of `GET /api/v1/network-egress`.' },
  egressRecordBytes: { value: 16 * KiB, unit: 'bytes', what: 'Request body of `POST /api/v1/network-egress` (one record).' },
});
