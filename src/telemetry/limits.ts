// Resource limits of the telemetry subsystem (OTLP receiver, stored records, correlation ledger), in one table
// (documented in docs/configuration.md "Limits"). The OTLP body limit itself is the sidecar's (gateway/limits.ts).
import { defineLimits, KiB } from '../util/limit-table.js';

export const TELEMETRY_LIMITS = defineLimits('Telemetry', 'src/telemetry/limits.ts', {
  storedAttributesBytes: { value: 16 * KiB, unit: 'bytes', what: 'JSON of the attributes kept with one OTLP record; larger sets keep only the normalised fields and a `_truncated` marker.' },
  attributeDepth: { value: 8, unit: 'count', what: 'Nesting of OTLP array and key-value-list attribute values read; deeper values are kept as null.' },
  correlationPageDefault: { value: 100, unit: 'count', what: 'Items in one page of the correlation routes when `limit` is not given.' },
  correlationPageMax: { value: 500, unit: 'count', what: 'Largest `limit` of the correlation routes.' },
  retentionSweepMs: { value: 60 * 60 * 1000, unit: 'ms', what: 'How often stored OTLP records older than `telemetry.retention_days` are deleted.' },
});
