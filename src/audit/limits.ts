// Resource limits of the audit store, in one table (documented in docs/configuration.md "Limits").
import { defineLimits, KiB } from '../util/limit-table.js';

export const AUDIT_LIMITS = defineLimits('Audit store', 'src/audit/limits.ts', {
  maxQueuedRows: { value: 1000, unit: 'count', what: 'Rows queued before a commit is forced without waiting for the event loop to turn.' },
  rowsPerInsert: { value: 32, unit: 'count', what: 'Rows per INSERT statement (a multi-row statement costs about half as much per row).' },
  maxDispositionAlerts: {
    value: 10_000,
    unit: 'count',
    what: 'Alerts one `POST /api/v1/alerts/disposition` may change; a filter matching more is refused (narrow it).',
  },
  maxRowObjectDepth: { value: 32, unit: 'count', what: 'Nesting allowed in an object stored in a row (a scanner result is about 6 deep); deeper is refused.' },
  maxRowObjectChars: {
    value: 256 * KiB,
    unit: 'characters',
    what: 'Serialised size of one object stored in a row, in UTF-16 code units (about bytes for ASCII JSON); larger is refused.',
  },
});
